// One tooltip for the whole timeline: a mark shows it on hover or focus (a tap focuses it),
// with its name and details, positioned over the mark.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

export interface TipContent {
  title: string;
  lines: string[];
}

interface TipState extends TipContent {
  x: number;
  y: number;
  below: boolean;
}

interface TipApi {
  show(target: HTMLElement, content: TipContent): void;
  hide(): void;
}

const TipContext = createContext<TipApi>({ show: () => {}, hide: () => {} });

export const TOOLTIP_ID = 'timeline-tooltip';

/** Wraps the marks; the tooltip is placed in this wrapper's coordinates. */
export function TooltipHost({ children }: { children: ReactNode }) {
  const container = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<TipState | null>(null);
  const hideTimer = useRef<number | null>(null);
  const show = useCallback((target: HTMLElement, content: TipContent) => {
    if (hideTimer.current !== null) window.clearTimeout(hideTimer.current);
    const box = container.current?.getBoundingClientRect();
    const r = target.getBoundingClientRect();
    if (!box) return;
    const below = r.top - box.top < 90;
    setTip({
      ...content,
      x: Math.min(Math.max(r.left + r.width / 2 - box.left, 120), box.width - 120),
      y: below ? r.bottom - box.top + 8 : r.top - box.top - 8,
      below,
    });
  }, []);
  const hide = useCallback(() => {
    hideTimer.current = window.setTimeout(() => setTip(null), 60);
  }, []);
  const api = useMemo(() => ({ show, hide }), [show, hide]);
  return (
    <TipContext.Provider value={api}>
      <div className="tip-host" ref={container}>
        {children}
        <div
          id={TOOLTIP_ID}
          role="tooltip"
          className={`tooltip${tip ? ' visible' : ''}${tip?.below ? ' below' : ''}`}
          style={tip ? { left: tip.x, top: tip.y } : undefined}
        >
          {tip && (
            <>
              <strong>{tip.title}</strong>
              {tip.lines.map((l, i) => (
                <span key={i}>{l}</span>
              ))}
            </>
          )}
        </div>
      </div>
    </TipContext.Provider>
  );
}

/**
 * Props that make an element a named mark with a tooltip. It takes the focus from the
 * arrow keys, not from Tab: the whole timeline is one Tab stop (useRovingMarks).
 */
export function useTip(content: TipContent) {
  const api = useContext(TipContext);
  return {
    tabIndex: -1,
    role: 'img' as const,
    'aria-label': content.title,
    'aria-describedby': content.lines.length > 0 ? TOOLTIP_ID : undefined,
    onMouseEnter: (e: { currentTarget: HTMLElement }) => api.show(e.currentTarget, content),
    onFocus: (e: { currentTarget: HTMLElement }) => api.show(e.currentTarget, content),
    // A mark that holds the focus (tapped on a touch screen, or reached by the keys) keeps its details up.
    onMouseLeave: (e: { currentTarget: HTMLElement }) => {
      if (document.activeElement !== e.currentTarget) api.hide();
    },
    onBlur: () => api.hide(),
  };
}

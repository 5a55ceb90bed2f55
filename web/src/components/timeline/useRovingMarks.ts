// The timeline is one Tab stop, however many marks it draws (a 50-request stampede draws
// hundreds): the timeline's body takes the focus from Tab and hands it to a mark (the one
// last visited, else the earliest of the first lane); the arrow keys, Home and End move
// between marks (rovingOrder); Tab leaves. Marks are focusable only this way (tabindex
// -1, see Tooltip's useTip), each named by its aria-label.
import { useEffect, type RefObject } from 'react';
import { firstMark, nextMark, ROVING_KEYS, type MarkBox, type RovingKey } from './rovingOrder.js';

const MARK = '.tl-content [role="img"]';

function marksIn(body: HTMLElement): { els: HTMLElement[]; boxes: MarkBox[] } {
  const rows = [...body.querySelectorAll<HTMLElement>('.tl-row')];
  const els = [...body.querySelectorAll<HTMLElement>(MARK)];
  const boxes = els.map((el) => {
    const r = el.getBoundingClientRect();
    const row = el.closest('.tl-row');
    return { row: row ? rows.indexOf(row as HTMLElement) : -1, x: r.left + r.width / 2 };
  });
  return { els, boxes };
}

export function useRovingMarks(bodyRef: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    let last: HTMLElement | null = null;

    const onFocusIn = (e: FocusEvent) => {
      const target = e.target as HTMLElement;
      if (target === body) {
        // Tab (not a click to drag) brings the focus to a mark.
        if (!body.matches(':focus-visible')) return;
        const { els, boxes } = marksIn(body);
        const resume = last && last.isConnected && body.contains(last) ? last : els[firstMark(boxes)];
        resume?.focus();
        return;
      }
      if (target.matches(MARK)) {
        last = target;
        // While a mark holds the focus, Shift+Tab leaves the timeline instead of coming back here.
        body.tabIndex = -1;
      }
    };
    const onFocusOut = (e: FocusEvent) => {
      const next = e.relatedTarget as Node | null;
      if (!next || !body.contains(next)) body.tabIndex = 0;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (!ROVING_KEYS.has(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement;
      if (!target.matches(MARK)) return;
      const { els, boxes } = marksIn(body);
      const to = els[nextMark(boxes, els.indexOf(target), e.key as RovingKey)];
      // Handled here: the page's own arrow shortcuts (pan, chapters) do not act as well.
      e.preventDefault();
      if (to && to !== target) to.focus();
    };
    body.addEventListener('focusin', onFocusIn);
    body.addEventListener('focusout', onFocusOut);
    body.addEventListener('keydown', onKeyDown);
    return () => {
      body.removeEventListener('focusin', onFocusIn);
      body.removeEventListener('focusout', onFocusOut);
      body.removeEventListener('keydown', onKeyDown);
    };
  }, [bodyRef]);
}

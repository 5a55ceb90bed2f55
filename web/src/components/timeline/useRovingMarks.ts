// The timeline is one Tab stop, however many marks it draws (a 50-request stampede draws
// hundreds): the timeline's body takes the focus from Tab and hands it to a mark (the one
// last visited, else the earliest of the first lane); the arrow keys, Home and End move
// between marks (rovingOrder); Tab leaves. Marks are focusable only this way (tabindex
// -1, see Tooltip's useTip), each named by its aria-label.
// While a run is live, the lanes' pause / kill buttons (LaneFaults, one toolbar a lane) are
// one more Tab stop, before the marks: Tab enters them on the button last used, else the
// first lane's pause; ← → Home End move within a lane's toolbar, ↑ ↓ to the next lane's; Tab
// goes on to the marks and Shift+Tab from a mark comes back. The buttons are tabindex -1.
import { useEffect, type RefObject } from 'react';
import { listen } from './listen.js';
import { firstMark, nextMark, ROVING_KEYS, type MarkBox, type RovingKey } from './rovingOrder.js';

const MARK = '.tl-content [role="img"]';
/** The worker controls: LaneFaults' buttons. */
const FAULT = '.lane-faults button';

/** The elements of one roving group in the body, with where each sits (row, centre x). */
function groupIn(body: HTMLElement, selector: string): { els: HTMLElement[]; boxes: MarkBox[] } {
  const rows = [...body.querySelectorAll<HTMLElement>('.tl-row')];
  const els = [...body.querySelectorAll<HTMLElement>(selector)];
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
    const last: Record<string, HTMLElement | null> = { [MARK]: null, [FAULT]: null };
    /** Where a visit to a group starts: the element last visited, else the first. */
    const entry = (selector: string): HTMLElement | null => {
      const before = last[selector];
      if (before && before.isConnected && body.contains(before)) return before;
      const { els, boxes } = groupIn(body, selector);
      return els[firstMark(boxes)] ?? null;
    };
    const groupOf = (el: HTMLElement) => (el.matches(MARK) ? MARK : el.matches(FAULT) ? FAULT : null);

    const onFocusIn = (e: FocusEvent) => {
      const target = e.target as HTMLElement;
      if (target === body) {
        // Tab (not a click to drag) brings the focus to the worker controls, else a mark.
        if (!body.matches(':focus-visible')) return;
        (entry(FAULT) ?? entry(MARK))?.focus();
        return;
      }
      const group = groupOf(target);
      if (group) {
        last[group] = target;
        // While a mark or a control holds the focus, Shift+Tab leaves the timeline instead of coming back here.
        body.tabIndex = -1;
      }
    };
    const onFocusOut = (e: FocusEvent) => {
      const next = e.relatedTarget as Node | null;
      if (!next || !body.contains(next)) body.tabIndex = 0;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement;
      const group = groupOf(target);
      if (!group) return;
      if (e.key === 'Tab') {
        // Controls → marks forward, marks → controls backward; otherwise Tab leaves as usual.
        const to = group === FAULT && !e.shiftKey ? entry(MARK) : group === MARK && e.shiftKey ? entry(FAULT) : null;
        if (to) {
          e.preventDefault();
          to.focus();
        }
        return;
      }
      if (!ROVING_KEYS.has(e.key)) return;
      const { els, boxes } = groupIn(body, group);
      const to = els[nextMark(boxes, els.indexOf(target), e.key as RovingKey)];
      // Handled here: the page's own arrow shortcuts (pan, chapters) do not act as well.
      e.preventDefault();
      if (to && to !== target) to.focus();
    };
    return listen(body, { focusin: onFocusIn, focusout: onFocusOut, keydown: onKeyDown });
  }, [bodyRef]);
}

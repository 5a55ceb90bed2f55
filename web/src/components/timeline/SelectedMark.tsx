// The selected event on the timeline (a click on its mark, or a link's `event=`): its mark
// ringed by a rule of its own, so that no mark re-renders when the selection changes, and
// a line that names it, for the page (the embed shows the ring only).
import { useEffect, type RefObject } from 'react';
import { markIdOf, selectedEventWords, seqOfMarkId } from '../../model/selectedEvent.js';
import { useStore } from '../../store/index.js';
import { selectCurrentLog } from '../../store/selectors.js';
import { listen } from './listen.js';

/** The rule that rings the selected mark. */
export function SelectedMarkStyle() {
  const seq = useStore((s) => s.selectedEvent);
  if (seq === null) return null;
  return (
    <style>{`.tl-content [data-mark="${markIdOf(seq)}"] { outline: 3px solid var(--focus); outline-offset: 3px; border-radius: 50%; }`}</style>
  );
}

/** A click on an event's mark selects it (and a link to the page then names it). */
export function useMarkSelection(body: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const onClick = (e: MouseEvent) => {
      const seq = seqOfMarkId((e.target as Element).closest('[data-mark]')?.getAttribute('data-mark'));
      if (seq !== null) useStore.getState().setSelectedEvent(seq);
    };
    return listen(el, { click: onClick });
  }, [body]);
}

/** "Selected: worker-1 write to email accepted at 131 ms", with a button that clears it. */
export function SelectedEventLine() {
  const seq = useStore((s) => s.selectedEvent);
  const log = useStore(selectCurrentLog);
  const words = seq === null ? null : selectedEventWords(log, seq);
  if (seq === null || words === null) return null;
  return (
    <p className="selected-event">
      <span>Selected: {words}</span>{' '}
      <button type="button" className="link-button" onClick={() => useStore.getState().setSelectedEvent(null)}>
        clear
      </button>
    </p>
  );
}

// The log a component draws a run from: its shown log (up to the cursor), rendered as a
// transition. A live run's batch goes into the store at once, and everything drawn from the
// whole log (lanes, holders, truth, verdict, story, legend) is then rendered apart from the
// update, in slices the page's frames run between, instead of in one long task that each
// frame and each arriving event waits behind. Until they are drawn, a live run's newest
// events are ticks (../components/timeline/ArrivalTicks.tsx).
//
// The log is React state set in a transition, not a store selection: React renders a store's
// selection again at once, in one piece, when the store changed while it was rendering in
// slices. So a component that draws from this selects from the store only what a batch does
// not change (selectRunFacts, not the run's record).
//
// One drawing at a time: React starts a transition's render again from scratch when a newer
// value comes before it is done, so with a batch every frame and a drawing longer than a
// frame nothing would ever be drawn. A value that changes while its drawing is under way
// waits for that drawing to be committed, and is then drawn as it is by then.
import type { RunEvent } from '@racelab/shared';
import { startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useStore, type State } from './index.js';
import { selectShownLog } from './selectors.js';

interface Drawn<T> {
  key: string;
  value: T;
}

/** A value read from the store, rendered as a transition (see above); `key` names what `select` reads. */
export function useDrawnValue<T>(key: string, select: (s: State) => T): T {
  const [drawn, setDrawn] = useState<Drawn<T>>(() => ({ key, value: select(useStore.getState()) }));
  /** The drawing asked for and not committed yet, if any; whether the value changed since. */
  const flight = useRef<{ asked: Drawn<T> | null; stale: boolean }>({ asked: null, stale: false });
  /** What is on screen. */
  const shown = useRef(drawn);
  const ask = useRef<() => void>(() => {});
  useEffect(() => {
    const f = flight.current;
    const update = () => {
      if (f.asked) {
        f.stale = true;
        return;
      }
      const value = select(useStore.getState());
      if (shown.current.key === key && Object.is(shown.current.value, value)) return; // another part of the store
      const next = { key, value };
      f.asked = next;
      f.stale = false;
      // A new object each time: the drawing is committed even when the value came back to the drawn one.
      startTransition(() => setDrawn(next));
    };
    ask.current = update;
    f.asked = null;
    update();
    return useStore.subscribe(update);
    // `key` names what `select` reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  // The drawing asked for is on screen: the value that changed meanwhile is drawn next.
  useLayoutEffect(() => {
    shown.current = drawn;
    const f = flight.current;
    if (f.asked !== drawn) return;
    f.asked = null;
    if (f.stale) ask.current();
  }, [drawn]);
  // Another key (another run): its value now, not a transition later.
  return drawn.key === key ? drawn.value : select(useStore.getState());
}

export function useDrawnLog(runId: string | null): readonly RunEvent[] {
  return useDrawnValue(`log ${runId}`, (s) => selectShownLog(s, runId));
}

// The log a component draws a run from: its shown log (up to the cursor), rendered as a
// transition. A live run's batch goes into the store at once, and everything drawn from the
// whole log (lanes, holders, truth, verdict, story, legend) is then rendered apart from the
// update, in slices the page's frames run between, instead of in one long task that each
// frame and each arriving event waits behind. Until they are drawn, a fast run's newest
// events are ticks (../components/timeline/ArrivalTicks.tsx).
//
// The log is React state set in a transition, not a store selection: React renders a store's
// selection again at once, in one piece, when the store changed while it was rendering in
// slices. So a component that draws from this selects from the store only what a batch does
// not change (selectRunFacts, not the run's record).
import type { RunEvent } from '@racelab/shared';
import { startTransition, useEffect, useState } from 'react';
import { useStore, type State } from './index.js';
import { selectShownLog } from './selectors.js';

/** A value read from the store, rendered as a transition (see above); `key` names what `select` reads. */
export function useDrawnValue<T>(key: string, select: (s: State) => T): T {
  const [drawn, setDrawn] = useState(() => ({ key, value: select(useStore.getState()) }));
  useEffect(() => {
    const update = () => {
      const value = select(useStore.getState());
      startTransition(() => setDrawn((d) => (d.key === key && Object.is(d.value, value) ? d : { key, value })));
    };
    update();
    return useStore.subscribe(update);
    // `key` names what `select` reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  // Another key (another run): its value now, not a transition later.
  return drawn.key === key ? drawn.value : select(useStore.getState());
}

export function useDrawnLog(runId: string | null): readonly RunEvent[] {
  return useDrawnValue(`log ${runId}`, (s) => selectShownLog(s, runId));
}

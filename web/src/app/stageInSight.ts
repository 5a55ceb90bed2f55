// Where the controls sit above the stage (one column: a phone, a narrow window), Run is at
// the bottom of the controls and the timeline a screen or more below it: a run that starts
// brings the stage into sight, so the person who pressed Run sees the race, not the form.
import { useEffect } from 'react';
import { useStore } from '../store/index.js';

/** The layout where the controls stack above the stage (base.css, max-width 1100px). */
export const STACKED = '(max-width: 1100px)';

/** A phone's layout (base.css and timeline.css, max-width 700px): the whole run fits the width, the legend goes under the verdict. */
export const PHONE = '(max-width: 700px)';

/**
 * True when a run has just been asked for (nothing pending before, something now) in a
 * stacked layout. `stacked` is asked only then: the store changes every frame of a live run,
 * and a media query evaluated each time is a query object made and matched each frame.
 */
export function bringsStageIntoSight(pendingBefore: number, pendingNow: number, stacked: () => boolean): boolean {
  return pendingBefore === 0 && pendingNow > 0 && stacked();
}

/** Scrolls the timeline to the top of the screen when a run starts in a stacked layout. */
export function useStageInSightOnRun(): void {
  useEffect(
    () =>
      useStore.subscribe((s, before) => {
        if (!bringsStageIntoSight(before.pending.length, s.pending.length, () => matchMedia(STACKED).matches)) return;
        // At once, not gliding: the first events arrive within milliseconds, and the lanes
        // they draw should be where the reader looks, not still moving up the screen.
        document.querySelector('.stage .timeline')?.scrollIntoView({ block: 'start', behavior: 'auto' });
      }),
    [],
  );
}

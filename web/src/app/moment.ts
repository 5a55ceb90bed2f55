// A link's moment: the playhead's time (`t=`) and the selected event (`event=`) put in place
// once the run the link names is on screen with its log up to then (a recording at once, a
// live run once the server has sent it that far, or once it ended). Once only: after it,
// the playhead is the reader's.
import type { RunEvent } from '@racelab/shared';
import { logEndMs } from '../model/cursor.js';
import { runSummary } from '../model/runSummary.js';
import type { AppStore, State } from '../store/index.js';
import { selectCurrentRun } from '../store/selectors.js';
import type { RunRecord } from '../store/types.js';
import { setPlayhead } from '../view/viewActions.js';

export interface Moment {
  /** Run time, in ms. */
  t?: number;
  /** The event's seq. */
  event?: number;
}

/** Where the playhead goes for `moment` in `events`; undefined while the log has not reached it yet, null for nowhere. */
export function momentIn(events: readonly RunEvent[], moment: Moment): number | null | undefined {
  const summary = runSummary(events);
  const ended = summary.endMs !== null;
  const picked = moment.event === undefined ? undefined : events.find((e) => e.seq === moment.event);
  if (moment.event !== undefined && !picked && !ended) return undefined;
  const at = moment.t ?? picked?.atMs;
  if (at === undefined) return null;
  if (!ended && summary.lastMs < at) return undefined;
  return Math.min(at, logEndMs(events));
}

/**
 * Applies `moment` to the first run on screen that `isTheRun` accepts, as soon as it can;
 * returns the unsubscribe (called by itself once applied).
 */
export function applyMomentWhenShown(store: AppStore, moment: Moment, isTheRun: (run: RunRecord) => boolean): () => void {
  if (moment.t === undefined && moment.event === undefined) return () => {};
  let done = false;
  let unsubscribe = () => {};
  const check = (s: State) => {
    const run = selectCurrentRun(s);
    if (done || !run || !isTheRun(run)) return;
    const at = momentIn(run.events, moment);
    if (at === undefined) return;
    done = true;
    unsubscribe();
    if (moment.event !== undefined) s.setSelectedEvent(moment.event);
    if (at !== null) setPlayhead(at, store);
  };
  unsubscribe = store.subscribe(check);
  check(store.getState());
  if (done) unsubscribe();
  return () => unsubscribe();
}

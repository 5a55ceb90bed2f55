// A replica's scheduler: a real croner job on the replica's own wall clock, as every copy of
// a service starts one. It runs the schedule for one slot (maxRuns 1, from the slot the run
// agreed on), which is all a run needs to see how many replicas fire for it.
import type { Cron } from 'croner';
import type { WorkerContext } from '../types.js';
import { PATTERN } from './schedule.js';

/** Starts croner on PATTERN from `startMs` (ms since the epoch, a whole second) and resolves once `onRun` is done with its run. */
export async function runScheduleOnce(ctx: WorkerContext, startMs: number, onRun: (cron: Cron) => Promise<void>): Promise<void> {
  // Loaded here, not at the top: only this scenario's runs pay for croner (its own chunk of the worker bundle).
  const { Cron } = await import('croner');
  await new Promise<void>((resolve, reject) => {
    const cron = new Cron(PATTERN, { startAt: new Date(startMs), maxRuns: 1 }, (self: Cron) => onRun(self).then(resolve, reject));
    // croner reads the clock now: a replica that got here after the slot began would run the next one.
    const first = cron.nextRun()?.getTime();
    if (first === startMs) return;
    cron.stop();
    reject(
      new Error(
        `${ctx.workerId} started croner after the slot it was to run had begun by its own clock: the machine is too busy; run it again`,
      ),
    );
  });
}

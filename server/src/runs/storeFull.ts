// PostgreSQL out of connections ("sorry, too many clients already", SQLSTATE 53300) is not a
// run's failure: the connections come back as other runs end. The room's budget
// (connectionBudget.ts) keeps its servers' runs within max_connections, but an outsider can
// take the last ones between two readings; then a run's worker (which exits with
// STORE_FULL_EXIT_CODE instead of being ready) or its own connection meets the refusal, and
// the run waits and asks again, within its start deadline, saying so once in the log.
import { isTooManyConnections } from '../worker/storeFullExit.js';
import { abortable } from './abortable.js';

/** Waits before asking again, in ms: doubles up to the last, which repeats. */
const RETRY_AFTER_MS = [100, 250, 500, 1000, 2000];

/** A worker that could not start because PostgreSQL had no connection free. */
export class StoreFull extends Error {}

/** Whether `error` is PostgreSQL refusing a connection because all of them are taken. */
export function isStoreFull(error: unknown): boolean {
  return error instanceof StoreFull || isTooManyConnections(error);
}

/** `step`, asked again after a pause each time PostgreSQL is out of connections, until `signal` aborts; `onFull` hears each refusal. */
export async function whileStoreFull<T>(step: () => Promise<T>, signal: AbortSignal, onFull: (error: unknown) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!isStoreFull(error) || signal.aborted) throw error;
      onFull(error);
      const ms = RETRY_AFTER_MS[Math.min(attempt, RETRY_AFTER_MS.length - 1)]!;
      await abortable(new Promise((resolve) => setTimeout(resolve, ms)), signal);
    }
  }
}

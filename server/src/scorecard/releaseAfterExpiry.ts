// The release-after-expiry cell, read from the lock key's history the server observed in
// Redis (lockHistory.ts): the next holder's lock went by a DEL, not by its expiry, removed
// by the release of a worker whose own lease had expired. The e-mails the run sent stand
// beside it as a figure; whose release and whose lock rest on the workers' reports, and the
// note says so.
import type { Metrics, RunEvent } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import { LOCK_KEY } from '../scenarios/duplicate-job/nightlyJob.js';
import { foreignRemovals, lockHistory, type LockHistory } from './lockHistory.js';
import type { Classified } from './matrix.js';

/** The names duplicate-job's lock key goes by in a run's log: the scenario's, and where `lock` stores it. */
export function duplicateJobLockKeys(lock: LockModule): string[] {
  const stored = lock.redisKey(LOCK_KEY);
  return stored === null || stored === LOCK_KEY ? [LOCK_KEY] : [LOCK_KEY, stored];
}

/** Where the attribution comes from, said beside every figure that rests on it. */
export const REPORTED = "whose release and whose lock: the workers' reports of their grants and releases";

const listed = (counts: Record<string, number>): string => Object.keys(counts).sort().join(', ');

/** The history in a line: how each hold went, e.g. "worker-1's expired, worker-2's deleted". */
export function holdsInWords(history: LockHistory): string {
  return history.holds.map((h) => `${h.owner ?? 'a holder'}'s ${h.end === 'held' ? 'still held' : h.end}`).join(', ');
}

/** What the history says of holds another's release removed, in a line; null when none was. */
export function foreignRemovalWords(history: LockHistory): string | null {
  const n = foreignRemovals(history);
  if (n === 0) return null;
  const { removedBy, lost, stale } = history.foreign;
  const its = Object.keys(lost).length === 1 ? 'its' : 'their';
  const removers = Object.keys(removedBy)
    .sort()
    .map((w) => `${w}'s release${stale.includes(w) ? ' after its own lease had expired' : ''}`)
    .join(' and ');
  return `${n} lock${n === 1 ? '' : 's'} held by another removed by a release: ${listed(lost)}'s lock went by a DEL, not by expiry nor by ${its} own release, but by ${removers}`;
}

/** The cell's verdict. */
export function releaseAfterExpiry(metrics: Metrics, lock: LockModule, events: readonly RunEvent[]): Classified {
  const emails = `e-mails ${String(metrics.emailsSent)}`;
  const history = lockHistory(events, duplicateJobLockKeys(lock));
  if (history.holds.length === 0 || !history.endsKnown || !history.ownersKnown) {
    // Without Redis's word on how each hold went, or whose each was, the e-mails are all there is.
    const why =
      history.holds.length === 0
        ? 'the server saw no grant of the lock'
        : !history.endsKnown
          ? 'Redis did not say how each hold went (no keyspace notifications)'
          : 'the grants reported are not the ones Redis held';
    const third = Number(metrics.emailsSent) >= 3;
    return {
      verdict: third ? 'duplicate work' : 'correct',
      note: `${emails}: ${third ? 'a third container got in' : 'the third container skipped'} (read from the e-mails alone: ${why})`,
    };
  }
  const removal = foreignRemovalWords(history);
  if (removal !== null) {
    return { verdict: 'duplicate work', note: `the key's history: ${removal}; ${emails} (${REPORTED})` };
  }
  return {
    verdict: 'correct',
    note: `the key's history: ${holdsInWords(history)}; no release removed another holder's lock; ${emails} (${REPORTED})`,
  };
}

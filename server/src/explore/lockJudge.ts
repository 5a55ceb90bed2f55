// A lock of your own under exploration is judged by what a lock promises, not by the
// scenario's e-mail count: under a schedule a lease may run out (the schedule expires it) or
// the containers may not arrive together, and a second e-mail then is what any lease gives
// (the scorecard's "duplicate work", by design). What a lock must never do, in duplicate-job:
// a release removes another holder's lock (the key's history, as in `racelab check`'s
// release after expiry); a killed holder leaves a key with no expiry; two containers build at
// once while no lease has run out. Each figure says where it comes from.
import type { Metrics, RunEvent } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import { foreignRemovals, lockHistory } from '../scorecard/lockHistory.js';
import { duplicateJobLockKeys, foreignRemovalWords, holdsInWords, REPORTED } from '../scorecard/releaseAfterExpiry.js';

export interface Judged {
  outcome: 'pass' | 'fail';
  /** The failed lines first, each with what it should be; then the figures beside them. */
  lines: string[];
}

/** The judge of duplicate-job runs of `lock` (ExploreRequest.judge). */
export function lockJudge(lock: LockModule): (run: { metrics: Metrics; events: RunEvent[] }) => Judged {
  return ({ metrics, events }) => {
    const history = lockHistory(events, duplicateJobLockKeys(lock));
    const failed: string[] = [];
    const removal = foreignRemovalWords(history);
    if (removal !== null)
      failed.push(
        `Locks held by another removed by a release: ${foreignRemovals(history)} — should be 0 (the key's history: ${removal}; ${REPORTED})`,
      );
    if (Number(metrics.lockTtlAfterRunMs) === -1)
      failed.push("Lock TTL after run: no expiry — should expire (Redis: a holder's key outlived it and never expires)");
    const holders = Number(metrics.maxConcurrentHolders);
    const expired = history.holds.some((h) => h.end === 'expired');
    if (holders >= 2 && history.endsKnown && !expired)
      failed.push(
        `Containers building at once while no lease ran out: ${holders} — should be 1 (PostgreSQL's report rows; Redis's expiries)`,
      );
    const beside = [
      `The lock key's holds: ${holdsInWords(history) || 'none'} (Redis's notifications; whose: the workers' reports of their grants)`,
      `E-mails sent: ${String(metrics.emailsSent)}, most containers building at once: ${holders} (PostgreSQL; more than one is what any lease gives once it runs out, or when the containers do not arrive together)`,
    ];
    if (!history.endsKnown)
      beside.push("Redis did not say how each hold went (no keyspace notifications): a release's removal could not be told from an expiry");
    return { outcome: failed.length > 0 ? 'fail' : 'pass', lines: [...failed, ...beside] };
  };
}

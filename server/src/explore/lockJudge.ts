// A lock of your own under exploration is judged by what a lock promises, not by the
// scenario's e-mail count: under a schedule a lease may run out (the schedule expires it) or
// the containers may not arrive together, and a second e-mail then is what any lease gives
// (the scorecard's "duplicate work", by design). What a lock must never do, in duplicate-job:
// a release removes another holder's lock (the key's history, as in `racelab check`'s
// release after expiry); a killed holder leaves a key with no expiry; two containers build at
// once while no lease has run out. Each figure says where it comes from.
import type { Metrics, RunEvent } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import { grantedPoint } from '../worker/scheduledStores.js';
import type { Decision } from './stepScheduler.js';
import { foreignRemovals, lockHistory } from '../scorecard/lockHistory.js';
import { duplicateJobLockKeys, foreignRemovalWords, holdsInWords } from '../scorecard/releaseAfterExpiry.js';

/** Where the attribution comes from under a schedule, said beside the figure that rests on it. */
const ATTRIBUTED = "whose grant: the schedule's trace; whose release: the workers' reports of their releases";

export interface Judged {
  outcome: 'pass' | 'fail';
  /** The failed lines first, each with what it should be; then the figures beside them. */
  lines: string[];
}

/** The judge of duplicate-job runs of `lock` (ExploreRequest.judge). */
export function lockJudge(lock: LockModule): (run: { metrics: Metrics; events: RunEvent[]; trace: Decision[] }) => Judged {
  return ({ metrics, events, trace }) => {
    const keys = duplicateJobLockKeys(lock);
    const grantees = granteesOf(trace, keys);
    // Where the grants' order cannot be told, no hold has an owner, and no removal is counted.
    const history = lockHistory(events, keys, grantees ?? []);
    const failed: string[] = [];
    const removal = foreignRemovalWords(history);
    if (removal !== null)
      failed.push(
        `Locks held by another removed by a release: ${foreignRemovals(history)} — should be 0 (the key's history: ${removal}; ${ATTRIBUTED})`,
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
      `The lock key's holds: ${holdsInWords(history) || 'none'} (Redis's notifications; whose: the schedule's trace of the grants)`,
      `E-mails sent: ${String(metrics.emailsSent)}, most containers building at once: ${holders} (PostgreSQL; more than one is what any lease gives once it runs out, or when the containers do not arrive together)`,
    ];
    if (grantees === null)
      beside.push(
        "Whose grant was whose could not be told: two workers' acquire calls overlapped in this schedule, so no removal is counted",
      );
    if (!history.endsKnown)
      beside.push("Redis did not say how each hold went (no keyspace notifications): a release's removal could not be told from an expiry");
    return { outcome: failed.length > 0 ? 'fail' : 'pass', lines: [...failed, ...beside] };
  };
}

/**
 * Whose each grant of the lock was, in the order Redis held them: the order in which the workers
 * reached the point right after their acquire returned a grant (grantedPoint); between two
 * decisions one worker moves, so each arrival shows first at a decision of its own. null when the
 * order cannot be told: a worker came back with a grant while another that was granted too was
 * inside its own acquire call (a lock may send more than one command there: which one took the
 * key, and so whose grant Redis held first, the trace does not show).
 */
export function granteesOf(trace: readonly Decision[], keys: readonly string[]): string[] | null {
  const points = new Set(keys.map(grantedPoint));
  const grantees: string[] = [];
  const waitingThere = new Set<string>();
  const acquiring = new Set<string>(); // let past its acquire call, not back with a grant yet
  const beside: string[] = []; // workers inside their acquire call when another came back with a grant
  for (const { waiting, choice } of trace) {
    for (const { worker, step } of waiting) {
      if (step.kind !== 'checkpoint' || !points.has(step.name) || waitingThere.has(worker)) continue;
      waitingThere.add(worker);
      acquiring.delete(worker);
      grantees.push(worker);
      beside.push(...acquiring);
    }
    const released = waiting.find((w) => w.worker === choice.worker)?.step;
    if (released?.kind === 'lock' && released.call === 'acquire' && keys.includes(released.key)) acquiring.add(choice.worker);
    waitingThere.delete(choice.worker); // let past the point (or killed there)
  }
  return beside.some((worker) => grantees.includes(worker)) ? null : grantees;
}

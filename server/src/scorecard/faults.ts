// The faults the scorecard runs every lock against: each one a duplicate-job run with a
// declared set of parameters and a fault plan, and how the run's metrics (counted from the
// stores) read as a verdict word. A lock is never called broken for what it never promised.
import type { CellVerdict, FaultRule, Metrics, Params } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';

export interface Classified {
  verdict: CellVerdict;
  /** One line: what the stores showed, with the numbers. */
  note: string;
  /** What every lock of this kind gives under this fault (no lease survives its holder's stall): not held against it. */
  byDesign?: boolean;
}

export interface ScorecardFault {
  id: string;
  title: string;
  /** One line: which scenario and parameter set stand for this fault, and why. */
  mapping: string;
  scenario: string;
  params: Params;
  faults: FaultRule[];
  /** Why the fault cannot apply to this lock by design; null: it applies. */
  doesNotApply(lock: LockModule): string | null;
  classify(metrics: Metrics, lock: LockModule): Classified;
}

const num = (metrics: Metrics, name: string): number => Number(metrics[name]);

// Three containers arriving late; worker-1 is stopped (SIGSTOP) 2.5 s right after it
// starts the report, holding a 2 s lease. worker-2 takes the lease once Redis lets it go
// and holds it, awake, until worker-3 has tried: worker-1 wakes and releases inside it.
const STALL_PARAMS = { workers: 3, arrival: 'late', leaseMs: 2000, workMs: 300, failure: 'none' };
const STALL_PLAN: FaultRule[] = [{ checkpoint: 'working', target: 'worker-1', action: 'stall', ms: 2500 }];

const PREVENTS_WORK_NOT_DAMAGE =
  'a lease prevents duplicate work, not damage: see the fencing scenario for what stops a stale write';

export const SCORECARD_FAULTS: ScorecardFault[] = [
  {
    id: 'stall-past-lease',
    title: 'Holder stalls past its lease',
    mapping: 'duplicate-job, 3 containers arriving late, 2 s lease, worker-1 stopped (SIGSTOP) 2.5 s while it builds the report',
    scenario: 'duplicate-job',
    params: STALL_PARAMS,
    faults: STALL_PLAN,
    doesNotApply: () => null,
    classify(metrics, lock) {
      const holders = num(metrics, 'maxConcurrentHolders');
      if (holders >= 2) {
        return {
          verdict: 'duplicate work',
          byDesign: true,
          note: `${holders} containers built the report at once, as with any lease: it expired while its holder was stopped${lock.renews ? ' (a stopped process renews nothing)' : ''}; ${PREVENTS_WORK_NOT_DAMAGE}`,
        };
      }
      return { verdict: 'correct', note: 'one container built the report at a time: the lock outlived the stall' };
    },
  },
  {
    id: 'release-after-expiry',
    title: 'Release after expiry',
    mapping: "the same run: worker-1 wakes inside worker-2's lease and releases; a third container tries next",
    scenario: 'duplicate-job',
    params: STALL_PARAMS,
    faults: STALL_PLAN,
    doesNotApply: (lock) => (lock.redisKey('lock') === null ? 'the lock has no expiry: its holder never releases after one' : null),
    classify(metrics) {
      const emails = num(metrics, 'emailsSent');
      if (emails >= 3) {
        return { verdict: 'duplicate work', note: `e-mails ${emails}: the stale holder's release removed the next holder's lock and a third container got in` };
      }
      return { verdict: 'correct', note: `e-mails ${emails}: the stale holder's release left the next holder's lock alone; the third container skipped` };
    },
  },
  {
    id: 'holder-killed',
    title: 'Holder killed',
    mapping: 'duplicate-job, 2 containers arriving late, 1 s lease, worker-1 killed (SIGKILL) while it builds the report',
    scenario: 'duplicate-job',
    params: { workers: 2, arrival: 'late', leaseMs: 1000, workMs: 300, failure: 'none' },
    faults: [{ checkpoint: 'working', target: 'worker-1', action: 'kill' }],
    doesNotApply: () => null,
    classify(metrics, lock) {
      const ttl = num(metrics, 'lockTtlAfterRunMs');
      if (ttl === -1) return { verdict: 'stuck lock', note: 'the dead holder\'s key has no expiry: every later run skips' };
      if (lock.redisKey('lock') === null) {
        return { verdict: 'correct', note: 'the lock lived in the dead holder\'s PostgreSQL session, which ended with it' };
      }
      return { verdict: 'correct', note: "the dead holder's lock has an expiry: it frees itself, no later run is stuck" };
    },
  },
];

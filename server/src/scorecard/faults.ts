// The faults the scorecard runs every lock against: each one a run of a scenario's library
// variant with a declared set of parameters and a fault plan, and how the run's metrics
// (counted from the stores) read as a verdict word. A lock is never called broken for what it never promised.
import type { FaultRule, Metrics, Params, RunEvent } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import type { Classified } from './matrix.js';
import { releaseAfterExpiry } from './releaseAfterExpiry.js';

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
  /** The verdict from the run's metrics and, where the fault needs it, its log (the keys the server observed). */
  classify(metrics: Metrics, lock: LockModule, events?: readonly RunEvent[]): Classified;
}

const num = (metrics: Metrics, name: string): number => Number(metrics[name]);

// Three containers arriving late; worker-1 is stopped (SIGSTOP) 2.5 s right after it
// starts the report, holding a 2 s lease. worker-2 takes the lease once Redis lets it go
// and holds it, awake, until worker-3 has tried: worker-1 wakes and releases inside it.
const STALL_PARAMS = { workers: 3, arrival: 'late', leaseMs: 2000, workMs: 300, failure: 'none' };
const STALL_PLAN: FaultRule[] = [{ checkpoint: 'working', target: 'worker-1', action: 'stall', ms: 2500 }];

const PREVENTS_WORK_NOT_DAMAGE = 'a lease prevents duplicate work, not damage: see the fencing scenario for what stops a stale write';

/** A lock kept elsewhere than in Redis with an expiry (advisory-lock: a PostgreSQL session) never passes on while its holder lives. */
const NO_EXPIRY = (lock: LockModule): string | null =>
  lock.redisKey('lock') === null ? 'the lock has no expiry: a stopped holder keeps it, so no lease passes on and nothing is stale' : null;

/** A lab where worker-1's lease passes on while it cannot run, and it writes after: the row's log says what landed. */
function classifyStaleWrite(metrics: Metrics, lock: LockModule, why: string): Classified {
  const [accepted, rejected] = [num(metrics, 'staleWritesAccepted'), num(metrics, 'staleWritesRejected')];
  if (accepted > 0) {
    return lock.fences
      ? {
          verdict: 'stale write accepted',
          note: `${accepted} stale write landed though the lock gives a fence: the write did not carry it to the row`,
        }
      : {
          verdict: 'stale write accepted',
          byDesign: true,
          note: `${accepted} stale write landed: ${why}; the lock gives no fence, so it prevents duplicate work, does not prevent damage (see the fencing scenario)`,
        };
  }
  if (rejected > 0)
    return {
      verdict: 'correct',
      note: `the stale write was rejected by the row: its fence was no newer than the one the row held (${why})`,
    };
  return { verdict: 'correct', note: 'no write landed from a worker whose lease had passed on: the lease outlived the fault' };
}

/** A lock of one Redis (or none) has no Redlock nodes for a fault of the Redlock lab to strike. */
const ONE_NODE = (lock: LockModule): string | null =>
  lock.spansNodes
    ? null
    : 'the lock takes one Redis, not a majority of independent nodes (a module of your own says so with `spansNodes: true` and takes `connections.nodes`): no Redlock node to cut off';

/** The Redlock lab's set for its faults: 1 s lease, no pause, each worker cut from two of the five nodes. */
const REDLOCK_SPLIT = { leaseMs: 1000, pauseMs: 0, workMs: 300, reach: 'split' };

/** The faults, in the scorecard's column order; `racelab check` runs the same list. */
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
    classify: (metrics, lock, events = []) => releaseAfterExpiry(metrics, lock, events),
  },
  {
    id: 'stale-write',
    title: 'Holder stalls past its lease, then writes',
    mapping:
      "fencing at its defaults: worker-1 takes a 1 s lease and is stopped (SIGSTOP) 2.5 s; worker-2 takes the lease and writes; worker-1 wakes and writes, with the lock's fence when it gives one",
    scenario: 'fencing',
    params: { leaseMs: 1000, pauseMs: 2500, workMs: 300 },
    faults: [],
    doesNotApply: NO_EXPIRY,
    classify: (metrics, lock) => classifyStaleWrite(metrics, lock, 'its lease expired while its process was stopped'),
  },
  {
    id: 'renewal-starved',
    title: 'Renewal starved by a blocked event loop',
    mapping:
      "event-loop-block at its defaults: worker-1 takes a 1 s lease and blocks its event loop 1.5 s, so the library's renewal timer cannot fire; worker-2 takes the lease and writes, then worker-1",
    scenario: 'event-loop-block',
    params: { leaseMs: 1000, blockMs: 1500, workMs: 800 },
    faults: [],
    doesNotApply: (lock) => NO_EXPIRY(lock) ?? (lock.renews ? null : 'the lock does not renew itself: there is no renewal to starve'),
    classify: (metrics, lock) =>
      classifyStaleWrite(
        metrics,
        lock,
        'a renewal timer runs in the blocked loop, as every in-process renewal does, and could not fire before the lease expired',
      ),
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
      if (ttl === -1) return { verdict: 'stuck lock', note: "the dead holder's key has no expiry: every later run skips" };
      if (lock.redisKey('lock') === null) {
        return { verdict: 'correct', note: "the lock lived in the dead holder's PostgreSQL session, which ended with it" };
      }
      return { verdict: 'correct', note: "the dead holder's lock has an expiry: it frees itself, no later run is stuck" };
    },
  },
  {
    id: 'failover-before-replication',
    title: 'Primary fails over before replication',
    mapping:
      "failover at its defaults: worker-1 takes the lock on the primary Sentinel names; the primary is killed (SIGKILL) before its replica has the key (the lab's link holds the bytes), Sentinel promotes the replica, worker-2 takes the lock there and writes, then worker-1 (a lock of several nodes gets that one primary as its node)",
    scenario: 'failover',
    params: { outage: 'primary', lag: 'slow', waitTimeoutMs: 1000, downAfterMs: 500, workMs: 300 },
    faults: [],
    doesNotApply: (lock) => (lock.redisKey('lock') === null ? 'the lock lives in PostgreSQL, which does not fail over with Redis' : null),
    classify: (metrics, lock) =>
      classifyStaleWrite(
        metrics,
        lock,
        'Redis replicates asynchronously: the primary died before its replica had the lock, and the promoted replica granted it again',
      ),
  },
  {
    id: 'redlock-partition',
    title: 'Redlock nodes partitioned',
    mapping:
      "redlock with the network split: worker-1 reaches nodes 1–3 and worker-2 nodes 3–5 (each cut from two of the five), 1 s lease, no pause: the lock must form a majority with two nodes silent, and worker-2's only once worker-1 has let go of node-3",
    scenario: 'redlock',
    params: { ...REDLOCK_SPLIT, clockJumpMs: 0 },
    faults: [],
    doesNotApply: ONE_NODE,
    classify(metrics) {
      const [holders, accepted, writer] = [
        num(metrics, 'maxConcurrentHolders'),
        num(metrics, 'staleWritesAccepted'),
        String(metrics.finalWriter),
      ];
      if (writer === 'nobody')
        return {
          verdict: 'stuck lock',
          note: 'no worker got a majority: the lock could not be taken with two of the five nodes out of reach',
        };
      if (accepted > 0)
        return {
          verdict: 'stale write accepted',
          note: `${accepted} stale write landed: two majorities formed across the partition while no lease had expired`,
        };
      if (holders >= 2)
        return { verdict: 'duplicate work', note: `${holders} holders at once across the partition while no lease had expired` };
      return {
        verdict: 'correct',
        note: 'one majority at a time: each worker took the lock on the three nodes it reaches, worker-2 only after worker-1 let go',
      };
    },
  },
  {
    id: 'clock-jump',
    title: 'Clock jump',
    mapping:
      "redlock in the same split, with node-3's clock jumping 1 s forward right after worker-1's grant (node-3's own clock where the machine allows, else played on its expiries; each run names which): worker-1's key on node-3 is gone at once, worker-2 takes nodes 3–5 and writes, then worker-1",
    scenario: 'redlock',
    params: { ...REDLOCK_SPLIT, clockJumpMs: 1000 },
    faults: [],
    doesNotApply: ONE_NODE,
    classify: (metrics, lock) =>
      classifyStaleWrite(
        metrics,
        lock,
        "node-3's clock jumped past worker-1's key, and worker-2 formed a second majority on nodes 3–5: Redlock's safety rests on clocks that do not jump",
      ),
  },
];

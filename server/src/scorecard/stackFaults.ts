// The faults of the scorecard's second part, in its column order: for each scenario of a job
// queue, a scheduler or a pooler, the parameter set and fault plan that stand for the fault
// there, or why none does. A cell's verdict is its scenario's own invariant, read from the run.
import type { FaultRule, Params } from '@racelab/shared';
import type { Unrun } from './matrix.js';

/** What a scenario runs for a fault: its parameters and fault plan. */
export interface Staged {
  params: Params;
  faults: FaultRule[];
}

export interface StackFault {
  id: string;
  title: string;
  /** One line: which parameter sets stand for this fault, and why. */
  mapping: string;
  /** By scenario id: the run that stands for this fault there, or the cell it gives without one. */
  plans: Record<string, Staged | Unrun>;
}

const doesNotApply = (note: string): Unrun => ({ verdict: 'does not apply', note });
const notStaged = (note: string): Unrun => ({ verdict: 'not staged', note });
const staged = (params: Params, faults: FaultRule[] = []): Staged => ({ params, faults });

/** An advisory lock, behind the pooler or not, is held by a backend: no time runs out on it. */
const NO_EXPIRY = doesNotApply(
  'an advisory lock has no expiry: its holder keeps it however long it is stopped or blocked, and nothing passes on',
);

/** The faults, in the second part's column order. */
export const STACK_FAULTS: StackFault[] = [
  {
    id: 'stall-past-job-lock',
    title: "Worker stopped past the job's lock",
    mapping:
      "worker-1 stopped (SIGSTOP) 6 s mid-job, before its charge: stalled-job with a 2 s lockDuration (bullmq's stalled-job check gives the job to worker-2), expired-job with a 2 s expireInSeconds (pg-boss's maintenance puts it back for retry)",
    plans: {
      'stalled-job': staged({ lockDurationMs: 2000, fault: 'stall', pauseMs: 6000 }),
      'expired-job': staged({ expireInSeconds: 2, fault: 'stall', pauseMs: 6000 }),
      'cron-every-replica': doesNotApply(
        'croner hands no job from one replica to another: each fires its own run of the schedule, and a replica stopped past its time fires late, as a replica whose clock is behind does (the skewed clocks column)',
      ),
      'pooled-advisory-lock': NO_EXPIRY,
    },
  },
  {
    id: 'event-loop-blocked',
    title: "Event loop blocked past the job's lock",
    mapping:
      "stalled-job with a 2 s lockDuration, worker-1's event loop blocked 6 s in the provider call (no signal: the process spins), so bullmq's lock-renewal timer cannot fire; only a library that renews something from a timer has anything to starve",
    plans: {
      'stalled-job': staged({ lockDurationMs: 2000, fault: 'block', pauseMs: 6000 }),
      'expired-job': doesNotApply(
        'pg-boss renews nothing: a job expires expireInSeconds after its fetch whether its worker is stopped, blocked or merely slow (the stopped column shows it)',
      ),
      'cron-every-replica': doesNotApply(
        "croner's timer fires late in a blocked replica, as it does behind a clock that is late (the skewed clocks column): croner holds nothing to starve",
      ),
      'pooled-advisory-lock': NO_EXPIRY,
    },
  },
  {
    id: 'worker-killed',
    title: 'Worker killed mid-job',
    mapping:
      "worker-1 killed (SIGKILL) after its charge, before the job is completed: stalled-job with a 1 s lockDuration (the job stays active until its lock expires, and bullmq's stalled-job check hands it to worker-2), expired-job with a 1 s expireInSeconds (pg-boss's maintenance expires the job, and worker-2 runs it again); cron-every-replica at its defaults with replica-1 killed as it starts the report, after it took the slot's key or claim",
    plans: {
      'stalled-job': staged({ lockDurationMs: 1000, fault: 'kill' }),
      'expired-job': staged({ expireInSeconds: 1, fault: 'kill' }),
      'cron-every-replica': staged({ replicas: 3, skewMs: 300, jobMs: 200 }, [
        { checkpoint: 'sending', target: 'replica-1', action: 'kill' },
      ]),
      'pooled-advisory-lock': notStaged(
        'a worker killed holding the session-level lock leaves it on the pooled backend, which PgBouncer in transaction mode does not reset; the scenario kills no worker yet',
      ),
    },
  },
  {
    id: 'skewed-clocks',
    title: 'Replicas with skewed clocks',
    mapping:
      "cron-every-replica with 3 replicas whose clocks are 1.3 s apart (libfaketime where installed, else each replica's Date moved in its process): the last fires 2.6 s late, past the 2 s slot",
    plans: {
      'stalled-job': doesNotApply("bullmq times the job's lock on Redis's clock (PX, in its scripts), not on a worker's"),
      'expired-job': doesNotApply("pg-boss times a job's expiry on PostgreSQL's clock (now()), not on a worker's"),
      'cron-every-replica': staged({ replicas: 3, skewMs: 1300, jobMs: 200 }),
      'pooled-advisory-lock': doesNotApply('an advisory lock is held by a backend, not for a time: no clock is read'),
    },
  },
  {
    id: 'pooler-transaction-mode',
    title: 'Behind a pooler in transaction mode',
    mapping:
      'pooled-advisory-lock at its defaults: two workers take the same advisory lock through a real PgBouncer in transaction mode with one server connection, 1 s of work under it',
    plans: {
      'stalled-job': doesNotApply('bullmq keeps its jobs and locks in Redis: it has no PostgreSQL connection to pool'),
      'expired-job': doesNotApply(
        'pg-boss takes only transaction-level advisory locks (pg_advisory_xact_lock), inside the transaction they guard: nothing it holds outlives a transaction for the pooler to lend on',
      ),
      'cron-every-replica': doesNotApply('croner schedules inside the process: it has no connection to pool'),
      'pooled-advisory-lock': staged({ workMs: 1000 }),
    },
  },
];

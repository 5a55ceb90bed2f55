// The orderings every run plays, one after another, each on its own document row with
// its own lease. In each, worker-1 takes the lease first (fence 1) and its process is
// stopped for real at one step of its code until the lease has passed to worker-2
// (fence 2); what differs is where it stops and who writes first afterwards.

/** The steps of a variant's code where worker-1 may be stopped. */
export type Step = 'before-register' | 'before-write' | 'between-check-and-write';

export interface Ordering {
  /** Also the id of the ordering's document row. */
  id: string;
  /** The metric that reports what the check did with the stale write. */
  metric: string;
  label: string;
  /** Where worker-1 is stopped; a variant without that step is stopped before its write. */
  stallAt: Step;
  /** Once the lease has passed: does the newer holder write first, or the stale one? */
  firstWriter: 'newer' | 'stale';
  /** The invariant, in plain words. */
  text: string;
}

export const ORDERINGS: Ordering[] = [
  {
    id: 'late-write',
    metric: 'lateWrite',
    label: "Stale write after the new holder's",
    stallAt: 'before-write',
    firstWriter: 'newer',
    text: "a stale write that arrives after the new holder's write does not replace it",
  },
  {
    id: 'early-write',
    metric: 'earlyWrite',
    label: "Stale write before the new holder's",
    stallAt: 'before-write',
    firstWriter: 'stale',
    text: "a stale write that arrives before the new holder's write does not outlive it",
  },
  {
    id: 'check-then-write',
    metric: 'checkThenWrite',
    label: "New holder's write between a stale check and its write",
    stallAt: 'between-check-and-write',
    firstWriter: 'newer',
    text: "a write that lands between the stale writer's check and its write is not overwritten",
  },
  {
    id: 'late-registration',
    metric: 'lateRegistration',
    label: 'Stale holder registers its lease after the new one',
    stallAt: 'before-register',
    firstWriter: 'newer',
    text: 'a stale holder that registers its lease id late does not take the row back',
  },
];

/** What the storage's check did with an ordering's stale write, as measured. */
export const OUTCOMES = {
  letThrough: 'let through',
  replaced: 'taken, then replaced',
  refused: 'refused',
  none: 'no stale write',
} as const;

// Redis key names (without the run's prefix): one lease and one fence counter per ordering.
export const lockKey = (ordering: string): string => `lock:${ordering}`;
export const fenceKey = (ordering: string): string => `fence:${ordering}`;
/** Every grant of an ordering's lease, by fence: "<worker> <seconds> <microseconds>" by Redis's clock. */
export const grantsKey = (ordering: string): string => `grants:${ordering}`;
/** Names the worker that found its lease still live when it woke up (choreography). */
export const writingInLeaseKey = (ordering: string): string => `choreography:${ordering}:writing-in-lease`;

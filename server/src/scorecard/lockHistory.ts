// A lock key's life as the server observed it in Redis (its key-observed events): each hold
// from the value's arrival to how it went, as Redis's keyspace notification said (a DEL, its
// expiry); and the releases that removed a hold that was not theirs. Whose each hold was and
// whose release removed it rest on the workers' reports (lease-acquired, lease-released): Redis
// tells what went and how, not who sent the DEL.
import type { RunEvent } from '@racelab/shared';

/** How a hold ended: Redis's word for it, another value over it, 'unknown' when no notification told, 'held' at the end. */
export type HoldEnd = 'deleted' | 'expired' | 'evicted' | 'replaced' | 'unknown' | 'held';

/** One value the key held, from its arrival to its end. */
export interface Hold {
  value: string;
  /** The seq of the observation that saw it arrive, and of the one that saw it go (absent while held). */
  fromSeq: number;
  toSeq?: number;
  end: HoldEnd;
  /** The worker granted it: the n-th grantee for the n-th hold (an explored run's trace, else the workers' lease-acquired reports). */
  owner?: string;
}

/** Holds that went by another worker's DEL, counted per worker. */
export interface ForeignRemovals {
  /** Workers whose holds went by a DEL (Redis's word) more often than their own releases said they removed one, and by how many. */
  lost: Record<string, number>;
  /** Workers whose releases said they removed more holds than their own that went by a DEL, and by how many: whose DELs they were (their reports). */
  removedBy: Record<string, number>;
  /** Of the workers in removedBy, those whose own hold had expired: they released after their lease had passed on. */
  stale: string[];
}

export interface LockHistory {
  holds: Hold[];
  /** The releases that removed another worker's hold (none when every DEL was its owner's). */
  foreign: ForeignRemovals;
  /** Every hold's end was told by Redis (or it was still held): no figure rests on a guess of how it went. */
  endsKnown: boolean;
  /** Every hold has an owner: as many grants were reported as the server saw. */
  ownersKnown: boolean;
}

/**
 * The holds of the key named `keys` (the scenario's name for it and where the lock stores it) in
 * `events`, each given to its grantee: the n-th of `grantees` (an explored run's trace knows them
 * in the order Redis held them), else of the lease-acquired reports.
 */
export function holdsOf(events: readonly RunEvent[], keys: readonly string[], grantees?: readonly string[]): Hold[] {
  const holds: Hold[] = [];
  let open: Hold | undefined;
  let closed: Hold | undefined; // the hold that went last, until a notification tells how
  for (const seen of events) {
    if (seen.type !== 'key-observed' || !keys.includes(seen.key)) continue;
    if (seen.value === null) {
      if (open) {
        open.toSeq = seen.seq;
        open.end = 'unknown';
        closed = open;
        open = undefined;
      }
      if (closed && closed.end === 'unknown' && seen.gone) closed.end = seen.gone;
      continue;
    }
    if (open?.value === seen.value) continue;
    if (open) Object.assign(open, { toSeq: seen.seq, end: 'replaced' });
    open = { value: seen.value, fromSeq: seen.seq, end: 'held' };
    closed = undefined;
    holds.push(open);
  }
  const owners = grantees ?? events.filter((e) => e.type === 'lease-acquired' && keys.includes(e.key)).map((e) => e.workerId ?? undefined);
  // One grant, one hold: where the counts differ, no hold is given an owner rather than a wrong one.
  if (owners.length === holds.length) holds.forEach((hold, i) => (hold.owner = owners[i]));
  return holds;
}

/**
 * The key's holds and the holds another worker's release removed. Redis says which holds went by
 * a DEL; a worker's release reports whether it removed the key it found (lease-released,
 * deleted 1: its read before found a value, its read after none). A worker whose holds went by a
 * DEL more often than its releases removed one lost them to another's, and a worker whose
 * releases removed more than its own holds that went by a DEL removed another's: counted, so
 * that no report has to arrive before or after Redis's word (foreignRemovals).
 */
export function lockHistory(events: readonly RunEvent[], keys: readonly string[], grantees?: readonly string[]): LockHistory {
  const holds = holdsOf(events, keys, grantees);
  const balance = new Map<string, number>(); // own holds removed by a DEL, less releases that said they removed one
  const add = (worker: string, n: number): void => void balance.set(worker, (balance.get(worker) ?? 0) + n);
  for (const hold of holds) if (hold.end === 'deleted' && hold.owner) add(hold.owner, 1);
  for (const e of events) if (e.type === 'lease-released' && keys.includes(e.key) && e.deleted > 0 && e.workerId) add(e.workerId, -1);
  const lost = Object.fromEntries([...balance].filter(([, n]) => n > 0));
  const removedBy = Object.fromEntries([...balance].filter(([, n]) => n < 0).map(([w, n]) => [w, -n]));
  const stale = Object.keys(removedBy).filter((w) => holds.some((h) => h.owner === w && h.end === 'expired'));
  return {
    holds,
    foreign: { lost, removedBy, stale },
    endsKnown: holds.every((h) => h.end !== 'unknown'),
    ownersKnown: holds.every((h) => h.owner !== undefined),
  };
}

/**
 * How many holds went by another worker's DEL: as many as Redis's DELs that their owners'
 * releases do not account for (an owner killed before it could report its release leaves one),
 * and no more than other workers' releases said they removed (a release whose key ran out
 * between its two reads says it removed one): both must show it.
 */
export function foreignRemovals({ foreign }: LockHistory): number {
  const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
  return Math.min(sum(foreign.lost), sum(foreign.removedBy));
}

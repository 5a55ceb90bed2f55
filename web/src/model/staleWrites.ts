// Which writes were stale, from the log alone: a write whose fence is lower than one a
// different worker had already written to the same target (out of order), a write
// computed from a read that another worker's accepted write had since made old (a lost
// update), or a write under a lease that a later grant to another worker had superseded,
// after that worker wrote. Both the story and the truth lanes read this one judgement.
import type { EventOf } from '@racelab/shared';
import { groupBy } from './groupBy.js';
import { deriveLeases } from './leases.js';
import { inOrder, memoOnLog, type EventLog } from './memo.js';
import { runSummary } from './runSummary.js';

export type Write = EventOf<'write-accepted'> | EventOf<'write-rejected'>;

export type Staleness =
  /** A newer fence was already written by `newer`'s worker. */
  | { kind: 'out-of-order'; write: Write; newer: EventOf<'write-accepted'> }
  /**
   * Computed from `read`, after `between` had written the target. Whether `between`'s write
   * was really lost only the stores can tell (an atomic `stock = stock - 2` reads first too):
   * `lost` is the verdict's word — true when the run failed, false when it passed, null while
   * it runs.
   */
  | { kind: 'lost-update'; write: Write; read: EventOf<'value-read'>; between: EventOf<'write-accepted'>; lost: boolean | null }
  /**
   * Written under a lease that a later grant of the same key to another worker had
   * superseded (a failover, a lost majority), after that worker wrote the target.
   */
  | { kind: 'superseded'; write: Write; newer: EventOf<'write-accepted'>; grantedMs: number };

/** Per write's seq, why it was stale; writes not in the map were not. */
export const deriveStaleWrites = memoOnLog((events: EventLog): Map<number, Staleness> => {
  const out = new Map<number, Staleness>();
  const { finished } = runSummary(events);
  const lost = finished ? finished.verdict === 'fail' : null;
  // The leases by worker and by key, each in the log's order: a write looks through its own
  // worker's leases and their keys' grants, not every lease of the run (a busy run has hundreds
  // of both, and this is derived again for every frame of it).
  const leases = deriveLeases(events);
  const byWorker = groupBy(leases, (l) => l.workerId);
  const byKey = groupBy(leases, (l) => l.key);
  /** A later grant to someone else of a key `who` believed it held at `atMs`, before `atMs`. */
  const supersededAt = (who: string, atMs: number): { by: string; atMs: number } | null => {
    for (const mine of byWorker.get(who) ?? []) {
      if (mine.belief.startMs > atMs || (mine.belief.endMs ?? Infinity) < atMs) continue;
      const later = byKey.get(mine.key)?.find((l) => l.workerId !== who && l.acquiredMs > mine.acquiredMs && l.acquiredMs <= atMs);
      if (later) return { by: later.workerId, atMs: later.acquiredMs };
    }
    return null;
  };
  const accepted = new Map<string, EventOf<'write-accepted'>[]>(); // by target, in time order
  const topFence = new Map<string, EventOf<'write-accepted'>>(); // by target: the accepted write with the highest fence
  const lastRead = new Map<string, EventOf<'value-read'>>(); // worker + target
  for (const e of inOrder(events)) {
    if (e.type === 'value-read' && e.workerId) lastRead.set(`${e.workerId}\u0000${e.target}`, e);
    if ((e.type !== 'write-accepted' && e.type !== 'write-rejected') || !e.workerId) continue;
    const who = e.workerId;
    const top = topFence.get(e.target);
    if (e.fence !== undefined && top && top.workerId !== who && (top.fence ?? -Infinity) > e.fence) {
      out.set(e.seq, { kind: 'out-of-order', write: e, newer: top });
    } else {
      const read = lastRead.get(`${who}\u0000${e.target}`);
      const prior = accepted.get(e.target) ?? [];
      for (let i = prior.length - 1; read && i >= 0 && prior[i]!.atMs > read.atMs; i--) {
        if (prior[i]!.workerId !== who) {
          out.set(e.seq, { kind: 'lost-update', write: e, read, between: prior[i]!, lost });
          break;
        }
      }
      const newer = out.has(e.seq) ? null : supersededAt(who, e.atMs);
      let theirs: EventOf<'write-accepted'> | undefined;
      for (let i = prior.length - 1; newer && !theirs && i >= 0; i--)
        if (prior[i]!.workerId === newer.by && prior[i]!.atMs >= newer.atMs) theirs = prior[i];
      if (newer && theirs) out.set(e.seq, { kind: 'superseded', write: e, newer: theirs, grantedMs: newer.atMs });
    }
    if (e.type === 'write-accepted') {
      if (!accepted.has(e.target)) accepted.set(e.target, []);
      accepted.get(e.target)!.push(e);
      if (e.fence !== undefined && (top?.fence ?? -Infinity) < e.fence) topFence.set(e.target, e);
    }
  }
  return out;
});

/** The write was stale by the evidence so far (a lost update only once the stores said so). */
export function isStale(s: Staleness | undefined): boolean {
  return s !== undefined && (s.kind !== 'lost-update' || s.lost === true);
}

/** The accepted writes of each target, in time order. */
export const acceptedWrites = memoOnLog((events: EventLog): Map<string, EventOf<'write-accepted'>[]> => {
  const writes = events.filter((e): e is EventOf<'write-accepted'> => e.type === 'write-accepted');
  const out = groupBy(writes, (e) => e.target);
  for (const list of out.values()) list.sort((a, b) => a.atMs - b.atMs);
  return out;
});

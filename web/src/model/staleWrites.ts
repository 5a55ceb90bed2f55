// Which writes were stale, from the log alone: a write whose fence is lower than one a
// different worker had already written to the same target (out of order), or a write
// computed from a read that another worker's accepted write had since made old (a lost
// update). Both the story and the truth lanes read this one judgement.
import type { EventOf } from '@racelab/shared';
import { inOrder, memoOnLog, type EventLog } from './memo.js';

export type Write = EventOf<'write-accepted'> | EventOf<'write-rejected'>;

export type Staleness =
  /** A newer fence was already written by `newer`'s worker. */
  | { kind: 'out-of-order'; write: Write; newer: EventOf<'write-accepted'> }
  /** Computed from `read`, after `between` had written the target. */
  | { kind: 'lost-update'; write: Write; read: EventOf<'value-read'>; between: EventOf<'write-accepted'> };

/** Per write's seq, why it was stale; writes not in the map were not. */
export const deriveStaleWrites = memoOnLog((events: EventLog): Map<number, Staleness> => {
  const out = new Map<number, Staleness>();
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
          out.set(e.seq, { kind: 'lost-update', write: e, read, between: prior[i]! });
          break;
        }
      }
    }
    if (e.type === 'write-accepted') {
      if (!accepted.has(e.target)) accepted.set(e.target, []);
      accepted.get(e.target)!.push(e);
      if (e.fence !== undefined && (top?.fence ?? -Infinity) < e.fence) topFence.set(e.target, e);
    }
  }
  return out;
});

/** The accepted writes of each target, in time order. */
export const acceptedWrites = memoOnLog((events: EventLog): Map<string, EventOf<'write-accepted'>[]> => {
  const out = new Map<string, EventOf<'write-accepted'>[]>();
  for (const e of events) {
    if (e.type !== 'write-accepted') continue;
    const list = out.get(e.target) ?? [];
    list.push(e);
    out.set(e.target, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.atMs - b.atMs);
  return out;
});

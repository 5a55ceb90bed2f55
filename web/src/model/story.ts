// What happened, in plain words, built from the log: who held the lock at once, whose
// lease ran out while it still acted, which writes landed or were refused and in which
// order, and what the stores held at the end. Every rule reads event types only, so each
// scenario gets its story from its events alone.
import type { EventOf, RunEvent } from '@racelab/shared';
import { deriveOverlaps } from './holders.js';
import { deriveLanes } from './lanes.js';
import { deriveLeases, type Lease } from './leases.js';
import { inOrder, memoOnLog, type EventLog } from './memo.js';
import { deriveStoreLanes } from './storeLanes.js';
import { formatMs } from './timeScale.js';

export type StoryTone = 'damage' | 'hazard' | 'safe' | 'fact';

export interface StoryLine {
  id: string;
  atMs: number;
  tone: StoryTone;
  text: string;
}

/** Most sentences of one kind; the rest are counted in one more sentence. */
const PER_RULE = 3;

type Write = EventOf<'write-accepted'> | EventOf<'write-rejected'>;

export function joinWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const short = (v: string | number) => {
  const s = String(v);
  return s.length > 24 ? `${s.slice(0, 22)}…` : s;
};

function capped(lines: StoryLine[], rule: string, noun: string): StoryLine[] {
  if (lines.length <= PER_RULE) return lines;
  const rest = lines.length - PER_RULE;
  const last = lines[PER_RULE - 1]!;
  return [
    ...lines.slice(0, PER_RULE),
    { id: `${rule}-more`, atMs: last.atMs, tone: last.tone, text: `…and ${rest} more ${noun}.` },
  ];
}

function overlapLines(events: EventLog): StoryLine[] {
  return deriveOverlaps(events).map((o) => ({
    id: `overlap-${o.key}-${o.startMs}`,
    atMs: o.startMs,
    tone: 'hazard' as const,
    text:
      `${joinWords(o.holders)} ${o.holders.length === 2 ? 'both' : 'all'} believed they held ${o.key} from ${formatMs(o.startMs)}` +
      `${o.endMs === null ? '' : ` to ${formatMs(o.endMs)}`}: ${o.holders.length} workers at once — the lock said 1.`,
  }));
}

function zombieLines(events: EventLog, leases: Lease[]): StoryLine[] {
  const lanes = new Map(deriveLanes(events).map((l) => [l.workerId, l]));
  const stalled = (w: string, atMs: number) =>
    lanes.get(w)?.spans.some((s) => s.kind === 'stall' && s.startMs <= atMs && (s.endMs ?? Infinity) >= atMs) ?? false;
  const out: StoryLine[] = [];
  for (const l of leases) {
    const z = l.zombie;
    if (!z || z.pending) continue;
    const until = z.endMs === null ? '' : ` until ${formatMs(z.endMs)}`;
    const cause =
      l.end.kind === 'deleted'
        ? `${l.workerId}'s lock on ${l.key} was deleted by ${l.end.by} at ${formatMs(z.startMs)}`
        : `${l.workerId}'s lease on ${l.key} expired at ${formatMs(z.startMs)} ${stalled(l.workerId, z.startMs) ? 'while its process was stalled' : 'while it was still working'}`;
    out.push({ id: `zombie-${l.id}`, atMs: z.startMs, tone: 'hazard', text: `${cause}; it went on as if it held it${until}.` });
  }
  return out;
}

function zombiesByWorker(leases: Lease[]): Map<string, Lease[]> {
  const out = new Map<string, Lease[]>();
  for (const l of leases) if (l.zombie && !l.zombie.pending) out.set(l.workerId, [...(out.get(l.workerId) ?? []), l]);
  return out;
}

function writeLines(events: EventLog, leases: Lease[]): StoryLine[] {
  const fences: StoryLine[] = [];
  const stale: StoryLine[] = [];
  const zombies: StoryLine[] = [];
  const refused: StoryLine[] = [];
  const zombieLeases = zombiesByWorker(leases);
  const inZombie = (w: string, atMs: number) =>
    zombieLeases.get(w)?.find((l) => l.zombie!.startMs <= atMs && (l.zombie!.endMs ?? Infinity) >= atMs);
  const accepted = new Map<string, EventOf<'write-accepted'>[]>(); // by target, in time order
  const topFence = new Map<string, EventOf<'write-accepted'>>(); // by target: the accepted write with the highest fence
  const lastRead = new Map<string, EventOf<'value-read'>>(); // worker + target
  for (const e of inOrder(events)) {
    if (e.type === 'value-read' && e.workerId) lastRead.set(`${e.workerId}\u0000${e.target}`, e);
    if ((e.type !== 'write-accepted' && e.type !== 'write-rejected') || !e.workerId) continue;
    const who = e.workerId;
    const took = e.type === 'write-accepted';
    const id = `write-${e.seq}`;
    const top = topFence.get(e.target);
    const newer = e.fence !== undefined && top && top.workerId !== who && (top.fence ?? -Infinity) > e.fence ? top : undefined;
    const read = lastRead.get(`${who}\u0000${e.target}`);
    let between: EventOf<'write-accepted'> | undefined;
    const prior = accepted.get(e.target) ?? [];
    for (let i = prior.length - 1; read && i >= 0 && prior[i]!.atMs > read.atMs; i--) {
      if (prior[i]!.workerId !== who) {
        between = prior[i];
        break;
      }
    }
    const zombie = inZombie(who, e.atMs);
    if (newer) {
      fences.push({
        id,
        atMs: e.atMs,
        tone: took ? 'damage' : 'safe',
        text: `${who} wrote ${e.target} with fence ${e.fence} after ${newer.workerId} wrote with fence ${newer.fence}; ${took ? 'the row took it — the stale write landed' : 'the row refused it'}.`,
      });
    } else if (took && read && between) {
      stale.push({
        id,
        atMs: e.atMs,
        tone: 'damage',
        text: `${who} wrote ${e.target} = ${short(e.value)} from its read of ${short(read.value)}, after ${between.workerId} had written ${e.target} = ${short(between.value)}: ${between.workerId}'s write was lost.`,
      });
    } else if (zombie) {
      zombies.push({
        id,
        atMs: e.atMs,
        tone: took ? 'damage' : 'safe',
        text: `${who} wrote ${e.target} at ${formatMs(e.atMs)} without a valid lease on ${zombie.key}; ${took ? 'the write landed' : 'the store refused it'}.`,
      });
    } else if (!took) {
      refused.push({ id, atMs: e.atMs, tone: 'safe', text: `The store refused ${who}'s write of ${e.target} = ${short(e.value)}: ${e.reason}.` });
    }
    if (took) {
      if (!accepted.has(e.target)) accepted.set(e.target, []);
      accepted.get(e.target)!.push(e);
      if (e.fence !== undefined && (top?.fence ?? -Infinity) < e.fence) topFence.set(e.target, e);
    }
  }
  return [
    ...capped(fences, 'fence', 'out-of-order writes'),
    ...capped(stale, 'stale', 'lost writes'),
    ...capped(zombies, 'zombie-write', 'writes without a valid lease'),
    ...capped(refused, 'refused', 'refused writes'),
  ];
}

function killLines(events: EventLog, leases: Lease[]): StoryLine[] {
  const out: StoryLine[] = [];
  for (const e of inOrder(events)) {
    if (e.type !== 'process-killed' || !e.workerId) continue;
    const held = leases.filter((l) => l.workerId === e.workerId && l.goneMs === e.atMs && l.releasedMs === null);
    const what = held.map((l) =>
      l.expiresAtMs === null
        ? `holding ${l.key}, which has no expiry: no one can take it any more`
        : `holding ${l.key}; Redis freed it only when the lease expired at ${formatMs(l.expiresAtMs)}`,
    );
    out.push({
      id: `kill-${e.seq}`,
      atMs: e.atMs,
      tone: held.some((l) => l.expiresAtMs === null) ? 'damage' : 'fact',
      text: `${e.workerId} was killed (${e.signal}) at ${formatMs(e.atMs)}${what.length > 0 ? ` ${what.join('; ')}` : ''}.`,
    });
  }
  return out;
}

function skipLines(events: EventLog): StoryLine[] {
  const turned: string[] = [];
  let first: RunEvent | null = null;
  for (const e of inOrder(events)) {
    if ((e.type !== 'job-skipped' && e.type !== 'lease-denied') || !e.workerId) continue;
    first ??= e;
    if (!turned.includes(e.workerId)) turned.push(e.workerId);
  }
  if (!first) return [];
  const who = turned.length > 4 ? `${turned.length} workers` : joinWords(turned);
  return [{ id: 'skips', atMs: first.atMs, tone: 'fact', text: `${who} found the lock taken and did not do the job.` }];
}

function endLines(events: EventLog): StoryLine[] {
  const out: StoryLine[] = [];
  // A lab's parts that ended the same (five Redis nodes, all "free") make one line.
  const alike = new Map<string, { store: string; names: string[]; value: string }>();
  for (const lane of deriveStoreLanes(events)) {
    const last = lane.segments[lane.segments.length - 1];
    if (!last) continue;
    if (lane.store === 'PostgreSQL' && last.value !== null)
      out.push({ id: `end-${lane.name}`, atMs: Infinity, tone: 'fact', text: `At the end, PostgreSQL held ${lane.name} = ${short(last.value)}.` });
    else if (lane.store !== 'Redis' && last.value !== null) {
      const id = `${lane.store}\u0000${last.value}`;
      const group = alike.get(id) ?? { store: lane.store, names: [], value: last.value };
      alike.set(id, group);
      group.names.push(lane.name);
    }
    if (lane.store === 'Redis' && lane.leaseKey && last.value !== null && last.noExpiry)
      out.push({ id: `end-${lane.name}`, atMs: Infinity, tone: 'damage', text: `At the end, Redis still held ${lane.name} with no expiry.` });
  }
  for (const { store, names, value } of alike.values()) {
    out.push({ id: `end-${store}-${names[0]}`, atMs: Infinity, tone: 'fact', text: `At the end: ${store} · ${joinWords(names)} = ${short(value)}.` });
  }
  return out;
}

/** The run's story, in time order, ending with what the stores held. */
export const deriveStory = memoOnLog((events: EventLog): StoryLine[] => {
  const leases = deriveLeases(events);
  const lines = [
    ...capped(overlapLines(events), 'overlap', 'times two workers held the lock at once'),
    ...capped(zombieLines(events, leases), 'zombie', 'leases lost while in use'),
    ...writeLines(events, leases),
    ...capped(killLines(events, leases), 'kill', 'killed workers'),
    ...skipLines(events),
  ].sort((a, b) => a.atMs - b.atMs);
  const calm = leases.length > 0 && !lines.some((l) => l.id.startsWith('overlap'));
  if (calm) lines.push({ id: 'one-holder', atMs: Infinity, tone: 'safe', text: 'At no time did two workers believe they held the same lock.' });
  return [...lines, ...endLines(events)];
});

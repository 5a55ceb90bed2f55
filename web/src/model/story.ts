// What happened, in plain words, built from the log: who held the lock at once, whose
// lease ran out while it still acted, which writes landed or were refused and in which
// order, and what the stores held at the end. Every rule reads event types only, so each
// scenario gets its story from its events alone.
import type { RunEvent } from '@racelab/shared';
import { deriveOverlaps } from './holders.js';
import { deriveLanes } from './lanes.js';
import { deriveLeases, type Lease } from './leases.js';
import { inOrder, memoOnLog, type EventLog } from './memo.js';
import { runSummary } from './runSummary.js';
import { acceptedWrites, deriveStaleWrites, type Write } from './staleWrites.js';
import { deriveStoreLanes, storeKind } from './storeLanes.js';
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
  return [...lines.slice(0, PER_RULE), { id: `${rule}-more`, atMs: last.atMs, tone: last.tone, text: `…and ${rest} more ${noun}.` }];
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
  /** The worker let go of it at `toMs`, and did nothing else after the lease ran out: its release was under way. */
  const releasing = (w: string, fromMs: number, toMs: number | null) =>
    toMs !== null &&
    events.some((e) => e.workerId === w && e.type === 'lease-released' && e.atMs === toMs) &&
    !events.some(
      (e) =>
        e.workerId === w &&
        e.atMs > fromMs &&
        e.atMs < toMs &&
        e.type !== 'lease-released' &&
        e.type !== 'checkpoint-reached' &&
        e.type !== 'note',
    );
  const doing = (l: Lease, z: NonNullable<Lease['zombie']>) =>
    stalled(l.workerId, z.startMs)
      ? 'while its process was stalled'
      : releasing(l.workerId, z.startMs, z.endMs)
        ? 'while its release was under way'
        : 'while it was still working';
  const out: StoryLine[] = [];
  for (const l of leases) {
    const z = l.zombie;
    if (!z || z.pending) continue;
    const until = z.endMs === null ? '' : ` until ${formatMs(z.endMs)}`;
    const cause =
      l.end.kind === 'deleted'
        ? `${l.workerId}'s lock on ${l.key} was deleted by ${l.end.by} at ${formatMs(z.startMs)}`
        : `${l.workerId}'s lease on ${l.key} expired at ${formatMs(z.startMs)} ${doing(l, z)}`;
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
  const lost: StoryLine[] = [];
  const superseded: StoryLine[] = [];
  const zombies: StoryLine[] = [];
  const refused: StoryLine[] = [];
  const stale = deriveStaleWrites(events);
  const writes = acceptedWrites(events);
  const zombieLeases = zombiesByWorker(leases);
  const inZombie = (w: string, atMs: number) =>
    zombieLeases.get(w)?.find((l) => l.zombie!.startMs <= atMs && (l.zombie!.endMs ?? Infinity) >= atMs);
  /** A later accepted write of the target, by another worker, with a higher fence: it replaced this one. */
  const replacedBy = (e: Write) =>
    e.fence === undefined
      ? undefined
      : (writes.get(e.target) ?? []).find((w) => w.atMs > e.atMs && w.workerId !== e.workerId && (w.fence ?? -Infinity) > e.fence!);
  /** Another worker was granted the key after the lease `l` (and before `atMs`): a newer holder existed. */
  const newerHolder = (l: Lease, atMs: number) =>
    leases.some((o) => o.key === l.key && o.workerId !== l.workerId && o.acquiredMs > l.acquiredMs && o.acquiredMs <= atMs);
  for (const e of inOrder(events)) {
    if ((e.type !== 'write-accepted' && e.type !== 'write-rejected') || !e.workerId) continue;
    const who = e.workerId;
    const took = e.type === 'write-accepted';
    const id = `write-${e.seq}`;
    const line = (tone: StoryTone, text: string): StoryLine => ({ id, atMs: e.atMs, tone, text });
    const why = stale.get(e.seq);
    const zombie = inZombie(who, e.atMs);
    if (why?.kind === 'out-of-order') {
      const head = `${who} wrote ${e.target} with fence ${e.fence} after ${why.newer.workerId} wrote with fence ${why.newer.fence}`;
      fences.push(
        took
          ? line('damage', `${head}; the row took it — the stale write landed.`)
          : line('safe', `${head}; the row refused it — the stale write was stopped.`),
      );
    } else if (why?.kind === 'lost-update') {
      const { read, between } = why;
      const other = `${between.workerId} had written ${e.target} = ${short(between.value)}`;
      if (!took)
        lost.push(
          line(
            'safe',
            `The store refused ${who}'s write of ${e.target} = ${short(e.value)}, made from its read of ${short(read.value)} after ${other}: ${e.reason} — ${between.workerId}'s write was kept.`,
          ),
        );
      else if (why.lost === true)
        lost.push(
          line(
            'damage',
            `${who} wrote ${e.target} = ${short(e.value)} from its read of ${short(read.value)}, after ${other}: ${between.workerId}'s write was lost.`,
          ),
        );
      else if (why.lost === false)
        lost.push(
          line(
            'safe',
            `${who} read ${e.target} = ${short(read.value)} before ${between.workerId} wrote ${e.target} = ${short(between.value)}, then wrote ${e.target} = ${short(e.value)}; the stores' count came out right, so ${between.workerId}'s write was not lost.`,
          ),
        );
      else
        lost.push(
          line(
            'hazard',
            `${who} wrote ${e.target} = ${short(e.value)} after ${other} since its read of ${short(read.value)}: ${between.workerId}'s write may be lost — the verdict will tell.`,
          ),
        );
    } else if (zombie) {
      const head = `${who} wrote ${e.target} at ${formatMs(e.atMs)} without a valid lease on ${zombie.key}`;
      const over = took ? replacedBy(e) : undefined;
      if (!took) zombies.push(line('safe', `${head}; the store refused it.`));
      else if (over)
        zombies.push(line('hazard', `${head}; it landed, then ${over.workerId}'s write with fence ${over.fence} replaced it.`));
      else if (newerHolder(zombie, e.atMs)) zombies.push(line('damage', `${head}; the write landed.`));
      else zombies.push(line('hazard', `${head}; it landed, and no other worker had taken the lock by then.`));
    } else if (why?.kind === 'superseded') {
      const head = `${who} wrote ${e.target} after ${why.newer.workerId} had been granted the lock (at ${formatMs(why.grantedMs)}) and had written it`;
      superseded.push(
        took
          ? line('damage', `${head}: the older holder's write landed over the newer one's.`)
          : line('safe', `${head}; the store refused it (${e.reason}) — the stale write was stopped.`),
      );
    } else if (!took) {
      refused.push(line('safe', `The store refused ${who}'s write of ${e.target} = ${short(e.value)}: ${e.reason}.`));
    }
  }
  return [
    ...capped(fences, 'fence', 'out-of-order writes'),
    ...capped(lost, 'stale', 'writes from an old read'),
    ...capped(superseded, 'superseded', 'writes of a superseded holder'),
    ...capped(zombies, 'zombie-write', 'writes without a valid lease'),
    ...capped(refused, 'refused', 'refused writes'),
  ];
}

function killLines(events: EventLog, leases: Lease[]): StoryLine[] {
  const out: StoryLine[] = [];
  // What the log has seen reaches to the run's end (or the latest event while it runs); an
  // expiry later than that is a prediction, and is worded as one.
  const { endMs: end, lastMs } = runSummary(events);
  const seenUntil = end ?? lastMs;
  for (const e of inOrder(events)) {
    if (e.type !== 'process-killed' || !e.workerId) continue;
    const held = leases.filter((l) => l.workerId === e.workerId && l.goneMs === e.atMs && l.releasedMs === null);
    const what = held.map((l) =>
      l.expiresAtMs === null
        ? `holding ${l.key}, which has no expiry: no one can take it any more`
        : l.expiresAtMs > seenUntil
          ? `holding ${l.key}; Redis would free it only when the lease expires at ${formatMs(l.expiresAtMs)}, after ${end === null ? 'the latest event' : 'the run ended'} (predicted, not seen)`
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
    const kind = storeKind(lane.store);
    if (kind === 'postgres' && last.value !== null)
      out.push({
        id: `end-${lane.name}`,
        atMs: Infinity,
        tone: 'fact',
        text: `At the end, PostgreSQL held ${lane.name} = ${short(last.value)}.`,
      });
    else if (kind !== 'redis' && last.value !== null) {
      const id = `${lane.store}\u0000${last.value}`;
      const group = alike.get(id) ?? { store: lane.store, names: [], value: last.value };
      alike.set(id, group);
      group.names.push(lane.name);
    }
    if (kind === 'redis' && lane.leaseKey && last.value !== null && last.noExpiry)
      out.push({
        id: `end-${lane.name}`,
        atMs: Infinity,
        tone: 'damage',
        text: `At the end, Redis still held ${lane.name} with no expiry.`,
      });
  }
  for (const { store, names, value } of alike.values()) {
    out.push({
      id: `end-${store}-${names[0]}`,
      atMs: Infinity,
      tone: 'fact',
      text: `At the end: ${store} · ${joinWords(names)} = ${short(value)}.`,
    });
  }
  return out;
}

/** The verdict's own evidence, last: what the stores counted against each invariant. */
function verdictLines(events: EventLog): StoryLine[] {
  const { finished } = runSummary(events);
  if (!finished) return [];
  const broken = finished.expectations.filter((e) => !e.held);
  if (finished.verdict === 'pass' || broken.length === 0) {
    const held = finished.expectations.map((e) => e.text);
    return held.length === 0
      ? []
      : [{ id: 'verdict-held', atMs: Infinity, tone: 'safe', text: `Counted from the stores, every invariant held — ${held.join('; ')}.` }];
  }
  return broken.map((e) => ({
    id: `verdict-${e.id}`,
    atMs: Infinity,
    tone: 'damage' as const,
    text: `Counted from the stores, it broke: ${e.text}${e.actual === undefined ? '' : ` (got ${short(e.actual)})`}.`,
  }));
}

/** The run's story, in time order, ending with what the stores held and what the verdict counted. */
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
  if (calm)
    lines.push({ id: 'one-holder', atMs: Infinity, tone: 'safe', text: 'At no time did two workers believe they held the same lock.' });
  return [...lines, ...endLines(events), ...verdictLines(events)];
});

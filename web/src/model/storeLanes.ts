// Ground truth: what the stores actually held, from the server's own observations: a lane
// per watched Redis key (value, holder, TTL), per watched PostgreSQL row or table, and per
// part of a scenario's own lab (a Redis node, Sentinel, the token provider), under its store.
// Consecutive observations with the same value (and the same "expires or not") form a segment.
import { POSTGRES_STORE, REDIS_STORE, storeOf } from '@racelab/shared';
import { deriveLeases } from './leases.js';
import { groupBy } from './groupBy.js';
import { inOrder, memoOnLog, type EventLog } from './memo.js';
import { runSummary } from './runSummary.js';
import { acceptedWrites, deriveStaleWrites, isStale } from './staleWrites.js';
import { formatMs } from './timeScale.js';

export type SegmentEnd = { kind: 'expired' } | { kind: 'deleted'; by: string } | { kind: 'replaced' } | null;

export interface StoreSegment {
  id: string;
  startMs: number;
  /** null: still going at the live edge. */
  endMs: number | null;
  /** What the store held; null = no key / no row. */
  value: string | null;
  /** Redis PTTL at the first observation (-1: no expiry); null for rows. */
  pttlMs: number | null;
  noExpiry: boolean;
  /** When the key would expire, as of the first observation. */
  expiresAtMs: number | null;
  /** The worker the value belongs to, if it names exactly one (or one is inferred). */
  holder: string | null;
  /** Every worker the value names, e.g. a set "{worker-1, worker-2}". */
  named: string[];
  /** True when the holder is inferred from who last acquired the key (the value names no one). */
  holderInferred: boolean;
  /** The holder's lease token the value is, or holds (a lab's "primary · lock <token>"), when it names the holder by it. */
  token: string | null;
  /** How the value went away, when it went away. */
  endedBy: SegmentEnd;
  /** The store still held this when the run ended: drawn to the right edge of the axis. */
  atEnd: boolean;
  /** For a row: the value came from a stale write (an older fence, or a read that was no longer true). */
  stale: boolean;
  label: string;
}

export interface StoreLane {
  /** "Redis" (the run's keys), "PostgreSQL", or the part of a lab a scenario names ("Redis node", "Sentinel"…). */
  store: string;
  /** The key or the row/table. */
  name: string;
  /** A key workers take leases on: one that never expires there is the hazard to flag. */
  leaseKey: boolean;
  segments: StoreSegment[];
}

type Draft = Omit<StoreSegment, 'label'>;

/** The run's own Redis keys, PostgreSQL, or a part of a scenario's lab. */
export type StoreKind = 'redis' | 'postgres' | 'lab';

export function storeKind(store: string): StoreKind {
  return store === REDIS_STORE ? 'redis' : store === POSTGRES_STORE ? 'postgres' : 'lab';
}

const ABSENT: Record<StoreKind, string> = { redis: 'no key', postgres: 'no row', lab: 'no value' };

/** What a lane says when its store holds nothing: no key, no row, or no value (a lab's part). */
export function absentWord(store: string): string {
  return ABSENT[storeKind(store)];
}

/** The workers a stored value names: a worker's lease token, or worker ids inside it. */
export function workersIn(value: string | null, tokens: Map<string, string>, workers: string[]): string[] {
  if (value === null) return [];
  const byToken = tokens.get(value);
  if (byToken) return [byToken];
  const named = workers.filter((w) => {
    for (let i = value.indexOf(w); i >= 0; i = value.indexOf(w, i + 1)) {
      const before = value.charAt(i - 1);
      const after = value.charAt(i + w.length);
      if (!/[0-9A-Za-z-]/.test(before) && !/[0-9A-Za-z]/.test(after)) return true;
    }
    return false;
  });
  return named;
}

/** The one worker a stored value belongs to, or null when it names none or several. */
export function holderOf(value: string | null, tokens: Map<string, string>, workers: string[]): string | null {
  const named = workersIn(value, tokens, workers);
  return named.length === 1 ? named[0]! : null;
}

/** The lease token a value is, or holds as a word of its own; null when it holds none. */
function tokenIn(value: string | null, tokens: Map<string, string>): string | null {
  if (value === null) return null;
  if (tokens.has(value)) return value;
  for (const word of value.split(/\s+/)) if (tokens.has(word)) return word;
  return null;
}

/** Observations lag the change they see: allow this much when matching them to events. */
const LAG_MS = 25;

/** Index of the last item at or before `atMs` in a list sorted by time; -1 when none. */
export function lastIndexAtOrBefore(sorted: readonly { atMs: number }[], atMs: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.atMs <= atMs) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Per key, a time-sorted list. */
function byKey<T extends { key: string; atMs: number }>(items: T[]): Map<string, T[]> {
  const out = groupBy(items, (item) => item.key);
  for (const list of out.values()) list.sort((a, b) => a.atMs - b.atMs);
  return out;
}

function describe(store: string, name: string, s: Draft): string {
  const to = s.endMs === null ? '' : s.atEnd ? ` to the end of the run (${formatMs(s.endMs)})` : ` to ${formatMs(s.endMs)}`;
  const span = `from ${formatMs(s.startMs)}${to}`;
  if (s.value === null) return `${store} ${name}: ${absentWord(store)} ${span}`;
  const who = s.holder ? ` (${s.holderInferred ? 'set by ' : ''}${s.holder})` : '';
  const ttl = s.pttlMs === null ? '' : s.noExpiry ? ', no expiry' : `, ttl ${formatMs(s.pttlMs)}`;
  const stale = s.stale ? ' — stale' : '';
  return `${store} ${name} = ${s.value}${who}${ttl}${stale}, ${span}`;
}

export const deriveStoreLanes = memoOnLog((events: EventLog): StoreLane[] => {
  const { workers, endMs } = runSummary(events);
  const leases = deriveLeases(events);
  const tokens = new Map<string, string>();
  for (const l of leases) if (l.token !== undefined) tokens.set(l.token, l.workerId);
  const acquisitions = byKey(leases.map((l) => ({ key: l.key, atMs: l.acquiredMs, by: l.workerId })));
  const lastAcquirer = (key: string, atMs: number): string | null => {
    const list = acquisitions.get(key) ?? [];
    return list[lastIndexAtOrBefore(list, atMs)]?.by ?? null;
  };
  const deletionList = leases
    .filter((l) => l.releasedMs !== null && (l.deleted ?? 0) > 0)
    .map((l) => ({ key: l.key, atMs: l.releasedMs as number, by: l.workerId }));
  const deletions = byKey(deletionList);

  const leaseKeys = new Set<string>();
  for (const e of events) {
    if (e.type === 'lease-acquired' || e.type === 'lease-denied' || e.type === 'lease-requested' || e.type === 'lease-wait-started')
      leaseKeys.add(e.key);
  }
  const stale = deriveStaleWrites(events);
  const writes = acceptedWrites(events);
  /** The row's value came from a stale write: the last accepted write to it before the observation. */
  const staleRow = (target: string, atMs: number): boolean => {
    const list = writes.get(target) ?? [];
    const last = list[lastIndexAtOrBefore(list, atMs)];
    return last !== undefined && isStale(stale.get(last.seq));
  };
  const lanes = new Map<string, { store: string; name: string; segments: Draft[] }>();
  for (const e of inOrder(events)) {
    if (e.type !== 'key-observed' && e.type !== 'row-observed') continue;
    const redis = e.type === 'key-observed';
    const store = redis ? REDIS_STORE : storeOf(e);
    const name = redis ? e.key : e.target;
    const id = `${store}\u0000${name}`;
    const lane = lanes.get(id) ?? { store, name, segments: [] };
    lanes.set(id, lane);
    const pttlMs = redis ? e.pttlMs : null;
    const noExpiry = e.value !== null && pttlMs === -1;
    const last = lane.segments[lane.segments.length - 1];
    // Same value, but a fresh TTL: the key was set again (by another holder, possibly).
    const reset = last?.expiresAtMs != null && pttlMs !== null && pttlMs >= 0 && e.atMs + pttlMs > last.expiresAtMs + LAG_MS;
    if (last && last.value === e.value && last.noExpiry === noExpiry && !reset) continue;
    if (last) {
      last.endMs = e.atMs;
      if (last.value !== null) {
        const from = last.startMs;
        const list = deletions.get(name) ?? [];
        const found = list[lastIndexAtOrBefore(list, e.atMs)];
        const del = found && found.atMs >= from ? found : undefined;
        if (e.value !== null && !del) last.endedBy = { kind: 'replaced' };
        else if (del) last.endedBy = { kind: 'deleted', by: del.by };
        else if (last.expiresAtMs !== null && last.expiresAtMs <= e.atMs + 1) last.endedBy = { kind: 'expired' };
      }
    }
    // A lab's part that holds a worker's own lease token (a Redlock node's lock, a failover
    // node's "primary · lock <token>") is that worker's too.
    const token = redis ? (e.value !== null && tokens.has(e.value) ? e.value : null) : tokenIn(e.value, tokens);
    const named = redis ? workersIn(e.value, tokens, workers) : token ? [tokens.get(token)!] : [];
    const one = named.length === 1 ? named[0]! : null;
    const inferred = redis && e.value !== null && named.length === 0 ? lastAcquirer(name, e.atMs + LAG_MS) : null;
    lane.segments.push({
      id: `obs-${e.seq}`,
      startMs: e.atMs,
      endMs: null,
      value: e.value,
      pttlMs,
      noExpiry,
      expiresAtMs: e.value !== null && pttlMs !== null && pttlMs >= 0 ? e.atMs + pttlMs : null,
      holder: one ?? inferred,
      named,
      holderInferred: one === null && inferred !== null,
      token,
      endedBy: null,
      atEnd: false,
      stale: !redis && e.value !== null && staleRow(name, e.atMs),
    });
  }
  // The run's Redis keys first, PostgreSQL last, a lab's parts between (in the order first seen).
  const rank: Record<StoreKind, number> = { redis: 0, lab: 1, postgres: 2 };
  const order = (store: string) => rank[storeKind(store)];
  return [...lanes.values()]
    .sort((a, b) => order(a.store) - order(b.store))
    .map(({ store, name, segments }) => ({
      store,
      name,
      leaseKey: storeKind(store) === 'redis' && leaseKeys.has(name),
      segments: segments.map((s) => {
        const closed = s.endMs === null && endMs !== null ? { ...s, endMs: Math.max(endMs, s.startMs), atEnd: true } : s;
        return { ...closed, label: describe(store, name, closed) };
      }),
    }));
});

/**
 * Where a segment's bar ends on a scale: a state the store still held when the run ended
 * reaches the right edge of the axis (past the end, in the room kept for it), so the final
 * state is a bar with its label, not a sliver at the end.
 */
export function drawnEndMs(seg: Pick<StoreSegment, 'endMs' | 'atEnd'>, scale: { endMs: number }): number | null {
  if (seg.endMs === null) return null;
  return seg.atEnd ? Math.max(seg.endMs, scale.endMs) : seg.endMs;
}

/** What a segment's bar says: the value, who it belongs to, its TTL, and "— stale" when it is. */
export function segmentText(store: string, s: StoreSegment, flagNoExpiry: boolean): string {
  if (s.value === null) return absentWord(store);
  const value = valueText(s);
  if (s.pttlMs === null) return s.stale ? `${value} — stale` : value;
  const ttl = s.noExpiry ? (flagNoExpiry ? ' · NO EXPIRY' : ' · no expiry') : ` · ttl ${formatMs(s.pttlMs)}`;
  return `${value}${ttl}`;
}

/** Longest value drawn whole beside its worker; a longer one (a library's random token) is drawn by its worker first. */
const VALUE_SHOWN_CHARS = 16;

/** The value as drawn: short values as they are, a long token by its worker. */
function valueText(s: StoreSegment): string {
  const value = s.value ?? '';
  if (!s.holder) return value;
  // A token inside a longer value: the value, a random token in it drawn by its worker.
  if (s.token && s.token !== value)
    return s.token.includes(s.holder) ? value : value.replace(s.token, `${s.holder} (${s.token.slice(0, 8)}…)`);
  if (value.length > VALUE_SHOWN_CHARS) return value.includes(s.holder) ? s.holder : `${s.holder} (${value.slice(0, 8)}…)`;
  return value.includes(s.holder) ? value : `${value} (${s.holder})`;
}

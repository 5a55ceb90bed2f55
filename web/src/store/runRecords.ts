// Run records: creating one, appending events to it, and keeping the store's runs bounded.
import type { RunEvent } from '@racelab/shared';
import type { RunRecord } from './types.js';

/** Runs kept in memory besides the ones on screen. */
const KEEP_RUNS = 8;

export function newRecord(fields: Pick<RunRecord, 'runId' | 'scenario' | 'variant'> & Partial<RunRecord>): RunRecord {
  return {
    source: 'live',
    manifest: null,
    file: null,
    slot: 0,
    events: [],
    clientOriginMs: null,
    lost: false,
    serverLost: null,
    roster: [],
    ...fields,
  };
}

export function pruned(runs: Record<string, RunRecord>, keep: string[]): Record<string, RunRecord> {
  const ids = Object.keys(runs);
  if (ids.length <= KEEP_RUNS) return runs;
  const drop = new Set(ids.filter((id) => !keep.includes(id)).slice(0, ids.length - KEEP_RUNS));
  return Object.fromEntries(Object.entries(runs).filter(([id]) => !drop.has(id)));
}

export function merged(record: RunRecord, incoming: RunEvent[], originEstimateMs: number): RunRecord {
  const events = record.events.slice();
  const seen = new Set<number>();
  let last = events.length > 0 ? events[events.length - 1]!.seq : -1;
  const origin = Number.isFinite(originEstimateMs)
    ? Math.min(record.clientOriginMs ?? originEstimateMs, originEstimateMs)
    : record.clientOriginMs;
  for (const e of incoming) {
    if (e.seq <= last) {
      // Possibly a duplicate (a resubscribe replays what the page may already hold).
      if (seen.size === 0) for (const x of events) seen.add(x.seq);
      if (seen.has(e.seq)) continue;
    }
    events.push(e);
    seen.add(e.seq);
    last = Math.max(last, e.seq);
  }
  return { ...record, events, clientOriginMs: origin };
}

/** The highest seq a record holds; -1 when empty. */
export function lastSeq(record: RunRecord): number {
  let max = -1;
  for (const e of record.events) if (e.seq > max) max = e.seq;
  return max;
}

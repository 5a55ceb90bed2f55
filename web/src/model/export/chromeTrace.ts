// Chrome Trace Event Format (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU):
// opens in Perfetto (ui.perfetto.dev) and Chrome DevTools' Performance panel. One process per run, one
// thread per worker and per watched key or row; leases, zombie windows, waits, work,
// stalls and stored values are complete ("X") slices, writes, skips, kills and releases
// are instants ("i"). Times are in microseconds since the run started.
import { deriveOverlaps } from '../holders.js';
import { deriveLanes } from '../lanes.js';
import type { EventLog } from '../memo.js';
import { runSummary } from '../runSummary.js';
import { absentWord, deriveStoreLanes, storeKind } from '../storeLanes.js';

export interface TraceEvent {
  name: string;
  ph: 'X' | 'i' | 'M';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  s?: 't' | 'p' | 'g';
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, string>;
}

export interface TraceRun {
  /** "duplicate-job · blind-del (broken)" */
  label: string;
  events: EventLog;
}

const us = (ms: number) => Math.round(ms * 1000);
/** Threads of watched keys and rows come after the workers. */
const STORE_TID = 1000;
const HOLDERS_TID = 999;

function runEvents(run: TraceRun, pid: number): TraceEvent[] {
  const { lastMs, endMs, workers } = runSummary(run.events);
  const end = endMs ?? lastMs;
  const out: TraceEvent[] = [
    { name: 'process_name', ph: 'M', pid, tid: 0, args: { name: run.label } },
    { name: 'process_sort_index', ph: 'M', pid, tid: 0, args: { sort_index: pid } },
  ];
  const slice = (tid: number, cat: string, name: string, startMs: number, endMsOrNull: number | null, args: Record<string, unknown>) =>
    out.push({ name, cat, ph: 'X', pid, tid, ts: us(startMs), dur: Math.max(0, us((endMsOrNull ?? end) - startMs)), args });
  for (const lane of deriveLanes(run.events)) {
    const tid = lane.index + 1;
    out.push({
      name: 'thread_name',
      ph: 'M',
      pid,
      tid,
      args: { name: lane.pid === null ? lane.workerId : `${lane.workerId} (pid ${lane.pid}${lane.host ? ` on ${lane.host}` : ''})` },
    });
    out.push({ name: 'thread_sort_index', ph: 'M', pid, tid, args: { sort_index: tid } });
    for (const l of lane.leases) {
      slice(tid, 'lease', `lease ${l.key}`, l.acquiredMs, l.heldEndMs, {
        ttlMs: l.ttlMs,
        fence: l.fence,
        token: l.token,
        ended: l.end.kind,
      });
      if (l.zombie && !l.zombie.pending)
        slice(tid, 'zombie', `zombie ${l.key}`, l.zombie.startMs, l.zombie.endMs, {
          why: l.end.kind === 'deleted' ? `deleted by ${l.end.by}` : 'expired',
        });
    }
    for (const s of lane.spans)
      slice(tid, s.kind, s.kind === 'stall' ? 'process stalled' : s.kind, s.startMs, s.endMs, { label: s.label, details: s.details });
    for (const m of lane.marks)
      out.push({
        name: m.caption ?? m.kind,
        cat: m.kind,
        ph: 'i',
        s: 't',
        pid,
        tid,
        ts: us(m.atMs),
        args: { label: m.label, details: m.details },
      });
  }
  if (workers.length > 0) out.push({ name: 'thread_name', ph: 'M', pid, tid: HOLDERS_TID, args: { name: 'holders at once' } });
  for (const o of deriveOverlaps(run.events))
    slice(HOLDERS_TID, 'overlap', `${o.holders.length} workers at once on ${o.key}`, o.startMs, o.endMs, { holders: o.holders });
  deriveStoreLanes(run.events).forEach((lane, i) => {
    const tid = STORE_TID + i;
    out.push({ name: 'thread_name', ph: 'M', pid, tid, args: { name: `${lane.store} ${lane.name}` } });
    for (const s of lane.segments)
      slice(tid, storeKind(lane.store), s.value ?? `(${absentWord(lane.store)})`, s.startMs, s.endMs, {
        holder: s.holder,
        pttlMs: s.pttlMs,
        noExpiry: s.noExpiry,
      });
  });
  return out;
}

/** The trace of one or more runs (compare mode gives two processes). */
export function chromeTrace(runs: TraceRun[], exportedAt: Date): ChromeTrace {
  return {
    traceEvents: runs.flatMap((run, i) => runEvents(run, i + 1)),
    displayTimeUnit: 'ms',
    otherData: { producer: 'racelab', exportedAt: exportedAt.toISOString(), runs: runs.map((r) => r.label).join(' | ') },
  };
}

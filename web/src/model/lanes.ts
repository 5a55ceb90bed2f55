// One lane per worker: its leases, what it waited for, worked on, wrote, skipped, and what
// happened to its process. Every shape carries the words a screen reader and a tooltip use.
import type { RunEvent } from '@racelab/shared';
import { deriveLeases, type Lease } from './leases.js';
import { markOf, type Mark } from './marks.js';
import { memoOnLog, type EventLog } from './memo.js';
import { inOrder, runSummary } from './runSummary.js';
import { formatMs } from './timeScale.js';

export type { Mark, MarkKind } from './marks.js';

export type SpanKind = 'wait' | 'work' | 'stall' | 'call';

export interface Span {
  id: string;
  kind: SpanKind;
  startMs: number;
  /** null: still going (drawn to the live edge). */
  endMs: number | null;
  label: string;
  details: string[];
  /** A stall the page asked for (pause): it lasts until the page resumes it. */
  byPage?: boolean;
}

export interface Lane {
  workerId: string;
  index: number;
  pid: number | null;
  leases: Lease[];
  spans: Span[];
  marks: Mark[];
  /** How the worker's process ended, in words ("exited 0", "killed by SIGKILL"), or null. */
  fate: string | null;
  /** True when the process was killed or exited by a signal. */
  died: boolean;
}

const at = (ms: number) => `at ${formatMs(ms)}`;

interface OpenSpan {
  span: Span;
  key: string;
}

export const deriveLanes = memoOnLog((events: EventLog): Lane[] => {
  const summary = runSummary(events);
  const leases = deriveLeases(events);
  const lanes = new Map<string, Lane>();
  summary.workers.forEach((workerId, index) =>
    lanes.set(workerId, { workerId, index, pid: null, leases: [], spans: [], marks: [], fate: null, died: false }),
  );
  for (const l of leases) lanes.get(l.workerId)?.leases.push(l);
  const releaseLease = new Map<number, Lease>(); // seq of lease-released → its lease
  for (const l of leases) if (l.releasedSeq !== null) releaseLease.set(l.releasedSeq, l);

  const open = new Map<string, OpenSpan>(); // worker + kind + key/label
  const openKey = (w: string, kind: SpanKind, key: string) => `${w}\u0000${kind}\u0000${key}`;
  const startSpan = (w: string, kind: SpanKind, key: string, e: RunEvent, label: string, details: string[] = []) => {
    const span: Span = { id: `${kind}-${e.seq}`, kind, startMs: e.atMs, endMs: null, label, details };
    lanes.get(w)?.spans.push(span);
    open.set(openKey(w, kind, key), { span, key });
  };
  const endSpan = (w: string, kind: SpanKind, key: string, atMs: number, outcome?: string) => {
    const o = open.get(openKey(w, kind, key));
    if (!o) return;
    o.span.endMs = atMs;
    if (outcome) o.span.details.push(outcome);
    open.delete(openKey(w, kind, key));
  };
  const endAllOf = (w: string, atMs: number) => {
    for (const [k, o] of open) {
      if (!k.startsWith(`${w}\u0000`)) continue;
      o.span.endMs = atMs;
      open.delete(k);
    }
  };

  for (const e of inOrder(events)) {
    const w = e.workerId;
    if (w === null) continue;
    const lane = lanes.get(w);
    if (!lane) continue;
    switch (e.type) {
      case 'worker-started':
        lane.pid = e.pid;
        break;
      case 'lease-wait-started':
        startSpan(w, 'wait', e.key, e, `${w} waited for ${e.key} from ${formatMs(e.atMs)}`);
        break;
      case 'lease-acquired':
        endSpan(w, 'wait', e.key, e.atMs, `acquired ${at(e.atMs)}`);
        break;
      case 'lease-denied':
        endSpan(w, 'wait', e.key, e.atMs, `gave up ${at(e.atMs)}`);
        break;
      case 'wait-started':
        startSpan(w, 'wait', `reason:${e.reason}`, e, `${w} waited (${e.reason}) from ${formatMs(e.atMs)}`);
        break;
      case 'wait-finished':
        endSpan(w, 'wait', `reason:${e.reason}`, e.atMs, `done ${at(e.atMs)}`);
        break;
      case 'call-finished': {
        const span: Span = {
          id: `call-${e.seq}`,
          kind: 'call',
          startMs: Math.max(0, e.atMs - e.durationMs),
          endMs: e.atMs,
          label: `${w} call to ${e.target} from ${formatMs(Math.max(0, e.atMs - e.durationMs))}`,
          details: [`answered ${e.status}`],
        };
        lane.spans.push(span);
        break;
      }
      case 'work-started':
        startSpan(w, 'work', e.label, e, `${w} ${e.label} from ${formatMs(e.atMs)}`);
        break;
      case 'work-finished':
        endSpan(w, 'work', e.label, e.atMs, `finished ${at(e.atMs)}`);
        break;
      case 'process-paused':
        startSpan(w, 'stall', '', e, `${w} process stalled from ${formatMs(e.atMs)}`, [
          e.plannedMs === null ? 'paused from the page (SIGSTOP) until resumed' : `planned: ${formatMs(e.plannedMs)} (SIGSTOP)`,
        ]);
        if (e.plannedMs === null) lane.spans[lane.spans.length - 1]!.byPage = true;
        break;
      case 'process-resumed':
        endSpan(w, 'stall', '', e.atMs, `resumed ${at(e.atMs)}`);
        break;
      case 'process-killed':
        lane.died = true;
        lane.fate = `killed by ${e.signal}`;
        endAllOf(w, e.atMs);
        break;
      case 'worker-exited':
        if (!lane.died) {
          lane.died = e.signal !== null;
          lane.fate = e.signal !== null ? `died by ${e.signal}` : `exited ${e.code ?? ''}`.trim();
        }
        endAllOf(w, e.atMs);
        break;
      default:
        break;
    }
    // A worker-exited right after process-killed is the same death: one mark is enough.
    if (e.type === 'worker-exited' && lane.marks.some((m) => m.kind === 'death')) continue;
    const body = markOf(e, w, releaseLease.get(e.seq));
    if (body) lane.marks.push({ id: `mark-${e.seq}`, atMs: e.atMs, ...body });
  }
  // Spans still open when the run ended stop at its end.
  if (summary.endMs !== null) for (const o of open.values()) o.span.endMs = summary.endMs;
  return [...lanes.values()];
});

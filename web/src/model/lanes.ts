// One lane per worker: its leases, what it waited for, worked on, wrote, skipped, and what
// happened to its process. Every shape carries the words a screen reader and a tooltip use.
import type { RunEvent } from '@racelab/shared';
import { deriveLeases, type Lease } from './leases.js';
import { markOf, type Mark } from './marks.js';
import { foldOnLog, memoOnLog, type EventLog } from './memo.js';
import { runSummary } from './runSummary.js';
import { formatMs } from './timeScale.js';

export type { Mark, MarkKind } from './marks.js';

/** `blocked`: work that blocks the process's event loop (its timers cannot fire): drawn as a band, like a stall. */
export type SpanKind = 'wait' | 'work' | 'stall' | 'blocked' | 'call';

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
  /** The worker's own clock against the others', when the run is about clocks ("clock 1000 ms behind node-1"). */
  clock: string | null;
}

/** Work that blocks the event loop says so in its label ("synchronous task: event loop blocked"). */
const BLOCKS_LOOP = /event loop (?:is )?blocked/i;

const at = (ms: number) => `at ${formatMs(ms)}`;

interface OpenSpan {
  span: Span;
  key: string;
}

/** A lane as the fold builds it; its leases and index come at the finish. */
type LaneDraft = Omit<Lane, 'index' | 'leases' | 'clock'> & { hasDeath: boolean };

interface LanesState {
  lanes: Map<string, LaneDraft>;
  /** Spans still going, by worker + kind + key/label. */
  open: Map<string, OpenSpan>;
  /** The clock marks, in log order, with their workers: the finish reads these, not every mark. */
  clockMarks: { workerId: string; mark: Mark }[];
}

const openKey = (w: string, kind: SpanKind, key: string) => `${w}\u0000${kind}\u0000${key}`;

/** The leases of a version of the log by the seq of the event that released them. */
const leasesByRelease = memoOnLog((events: EventLog) => {
  const byRelease = new Map<number, Lease>();
  for (const l of deriveLeases(events)) if (l.releasedSeq !== null) byRelease.set(l.releasedSeq, l);
  return byRelease;
});

export const deriveLanes = foldOnLog<LanesState, Lane[]>({
  init: () => ({ lanes: new Map(), open: new Map(), clockMarks: [] }),

  step({ lanes, open, clockMarks }, e, events) {
    const w = e.workerId;
    if (w === null) return;
    let lane = lanes.get(w);
    if (!lane) lanes.set(w, (lane = { workerId: w, pid: null, spans: [], marks: [], fate: null, died: false, hasDeath: false }));
    const startSpan = (kind: SpanKind, key: string, label: string, details: string[] = []) => {
      const span: Span = { id: `${kind}-${e.seq}`, kind, startMs: e.atMs, endMs: null, label, details };
      lane.spans.push(span);
      open.set(openKey(w, kind, key), { span, key });
      return span;
    };
    const endSpan = (kind: SpanKind, key: string, outcome?: string) => {
      const o = open.get(openKey(w, kind, key));
      if (!o) return;
      o.span.endMs = e.atMs;
      if (outcome) o.span.details.push(outcome);
      open.delete(openKey(w, kind, key));
    };
    const endAll = () => {
      for (const [k, o] of open) {
        if (!k.startsWith(`${w}\u0000`)) continue;
        o.span.endMs = e.atMs;
        open.delete(k);
      }
    };

    switch (e.type) {
      case 'worker-started':
        lane.pid = e.pid;
        break;
      case 'lease-wait-started':
        startSpan('wait', e.key, `${w} waited for ${e.key} from ${formatMs(e.atMs)}`);
        break;
      case 'lease-acquired':
        endSpan('wait', e.key, `acquired ${at(e.atMs)}`);
        break;
      case 'lease-denied':
        endSpan('wait', e.key, `gave up ${at(e.atMs)}`);
        break;
      case 'wait-started':
        startSpan('wait', `reason:${e.reason}`, `${w} waited (${e.reason}) from ${formatMs(e.atMs)}`);
        break;
      case 'wait-finished':
        endSpan('wait', `reason:${e.reason}`, `done ${at(e.atMs)}`);
        break;
      case 'call-finished': {
        const startMs = Math.max(0, e.atMs - e.durationMs);
        lane.spans.push({
          id: `call-${e.seq}`,
          kind: 'call',
          startMs,
          endMs: e.atMs,
          label: `${w} call to ${e.target} from ${formatMs(startMs)}`,
          details: [`answered ${e.status}`],
        });
        break;
      }
      case 'work-started':
        if (BLOCKS_LOOP.test(e.label))
          startSpan('blocked', e.label, `${w}'s event loop blocked from ${formatMs(e.atMs)}`, [e.label, 'no timer, no I/O callback and no lease renewal can run meanwhile']);
        else startSpan('work', e.label, `${w} ${e.label} from ${formatMs(e.atMs)}`);
        break;
      case 'work-finished':
        endSpan(BLOCKS_LOOP.test(e.label) ? 'blocked' : 'work', e.label, `finished ${at(e.atMs)}`);
        break;
      case 'process-paused': {
        const span = startSpan('stall', '', `${w} process stalled from ${formatMs(e.atMs)}`, [
          e.plannedMs === null ? 'paused from the page (SIGSTOP) until resumed' : `planned: ${formatMs(e.plannedMs)} (SIGSTOP)`,
        ]);
        if (e.plannedMs === null) span.byPage = true;
        break;
      }
      case 'process-resumed':
        endSpan('stall', '', `resumed ${at(e.atMs)}`);
        break;
      case 'process-killed':
        lane.died = true;
        lane.fate = `killed by ${e.signal}`;
        endAll();
        break;
      case 'worker-exited':
        if (!lane.died) {
          lane.died = e.signal !== null;
          lane.fate = e.signal !== null ? `died by ${e.signal}` : `exited ${e.code ?? ''}`.trim();
        }
        endAll();
        // Right after process-killed it is the same death: one mark is enough.
        if (lane.hasDeath) return;
        break;
      default:
        break;
    }
    // A release's lease (its blind DEL, if any) is settled by the time the release is folded.
    const body = markOf(e, w, e.type === 'lease-released' ? leasesByRelease(events).get(e.seq) : undefined);
    if (!body) return;
    const mark: Mark = { id: `mark-${e.seq}`, atMs: e.atMs, ...body };
    lane.marks.push(mark);
    if (body.kind === 'death') lane.hasDeath = true;
    if (body.kind === 'clock') clockMarks.push({ workerId: w, mark });
  },

  finish({ lanes, open, clockMarks }, events) {
    const summary = runSummary(events);
    const leases = deriveLeases(events);
    // Spans still going may change with the next events: the value gets copies, and when
    // the run has ended they stop at its end.
    const going = new Set([...open.values()].map((o) => o.span));
    // Each worker's clock, once some worker said how its clock differs from another's.
    // Short, to fit under the worker's name: "clock: −1000 ms" against "clock: reference".
    const clocks = new Map<string, string>();
    for (const w of lanes.keys()) {
      const said = clockMarks.find((c) => c.workerId === w)?.mark;
      const m = said?.caption ? /^clock (\S+) ms (behind|ahead of) /.exec(said.caption) : null;
      if (said?.caption && m) clocks.set(w, `clock: ${m[2] === 'behind' ? '−' : '+'}${m[1]} ms`);
    }
    const reference = (w: string) => clockMarks.some((c) => c.mark.caption?.endsWith(` ${w}`));
    return summary.workers.map((workerId, index): Lane => {
      const lane = lanes.get(workerId);
      return {
        clock: clocks.get(workerId) ?? (reference(workerId) ? 'clock: reference' : null),
        workerId,
        index,
        pid: lane?.pid ?? null,
        leases: leases.filter((l) => l.workerId === workerId),
        spans: (lane?.spans ?? []).map((s) => (going.has(s) ? { ...s, details: [...s.details], endMs: summary.endMs } : s)),
        marks: lane ? lane.marks.slice() : [],
        fate: lane?.fate ?? null,
        died: lane?.died ?? false,
      };
    });
  },
});

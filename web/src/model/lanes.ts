// One lane per worker: its leases, what it waited for, worked on, wrote, skipped, and what
// happened to its process. Every shape carries the words a screen reader and a tooltip use.
import { nodeFault } from './labNodeFaults.js';
import { deriveLeases, type Lease } from './leases.js';
import { markOf, type Mark } from './marks.js';
import { foldOnLog, memoOnLog, type EventLog } from './memo.js';
import { oldBlockTask, oldClockNote, type ClockSkew } from './oldEventForms.js';
import { runSummary } from './runSummary.js';
import { formatMs } from './timeScale.js';

export type { Mark, MarkKind } from './marks.js';

/**
 * `blocked`: work that blocks the process's event loop (its timers cannot fire): drawn as a
 * band, like a stall. `cut`: a lab node isolated from this worker, from the cut to its
 * rejoin (or the run's end): a band too. `slow`: a lab node slowed for this worker, from the
 * slow to its restore (or the run's end): a band of its own.
 */
export type SpanKind = 'wait' | 'work' | 'stall' | 'blocked' | 'call' | 'cut' | 'slow';

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
  /** Words drawn on a band, when they are not its kind's alone ("node-4 cut", "node-3 +300 ms"). */
  caption?: string;
}

export interface Lane {
  workerId: string;
  index: number;
  pid: number | null;
  /** The worker agent whose host ran the process, when it was not the server's own child. */
  host: string | null;
  leases: Lease[];
  spans: Span[];
  marks: Mark[];
  /** How the worker's process ended, in words ("exited 0", "killed by SIGKILL"), or null. */
  fate: string | null;
  /** True when the process was killed or exited by a signal. */
  died: boolean;
  /** The worker's own clock against the others', when the run is about clocks ("clock 1000 ms behind node-1"). */
  clock: string | null;
  /** The kinds of its spans and of its marks: what the legend needs, without a walk over every shape. */
  spanKinds: ReadonlySet<SpanKind>;
  markKinds: ReadonlySet<Mark['kind']>;
}

const at = (ms: number) => `at ${formatMs(ms)}`;

interface OpenSpan {
  span: Span;
  key: string;
}

/** A lane as the fold builds it; its leases and index come at the finish. */
type LaneDraft = Omit<Lane, 'index' | 'leases' | 'clock' | 'spanKinds' | 'markKinds'> & {
  hasDeath: boolean;
  spanKinds: Set<SpanKind>;
  markKinds: Set<Mark['kind']>;
};

interface LanesState {
  lanes: Map<string, LaneDraft>;
  /** Spans still going, by worker + kind + key/label. */
  open: Map<string, OpenSpan>;
  /** Each worker's clock against its reference's, from its clock-skewed (or an old note). */
  clocks: Map<string, ClockSkew>;
}

const openKey = (w: string, kind: SpanKind, key: string) => `${w}\u0000${kind}\u0000${key}`;

/** The leases of a version of the log by the seq of the event that released them. */
const leasesByRelease = memoOnLog((events: EventLog) => {
  const byRelease = new Map<number, Lease>();
  for (const l of deriveLeases(events)) if (l.releasedSeq !== null) byRelease.set(l.releasedSeq, l);
  return byRelease;
});

/**
 * A worker's clock, short enough to fit under its name ("clock: −1000 ms", "clock: reference"),
 * once some worker has reported how its clock differs from another's; else null.
 */
function clockLine(own: ClockSkew | undefined, isReference: boolean): string | null {
  if (own) return `clock: ${own.offsetMs < 0 ? '−' : own.offsetMs > 0 ? '+' : '±'}${Math.abs(own.offsetMs)} ms`;
  return isReference ? 'clock: reference' : null;
}

export const deriveLanes = foldOnLog<LanesState, Lane[]>({
  init: () => ({ lanes: new Map(), open: new Map(), clocks: new Map() }),

  step({ lanes, open, clocks }, e, events) {
    const w = e.workerId;
    if (w === null) return;
    let lane = lanes.get(w);
    if (!lane)
      lanes.set(
        w,
        (lane = {
          workerId: w,
          pid: null,
          host: null,
          spans: [],
          marks: [],
          fate: null,
          died: false,
          hasDeath: false,
          spanKinds: new Set(),
          markKinds: new Set(),
        }),
      );
    const pushSpan = (span: Span) => {
      lane.spans.push(span);
      lane.spanKinds.add(span.kind);
    };
    const startSpan = (kind: SpanKind, key: string, label: string, details: string[] = []) => {
      const span: Span = { id: `${kind}-${e.seq}`, kind, startMs: e.atMs, endMs: null, label, details };
      pushSpan(span);
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
    const startBlocked = (task: string) =>
      startSpan('blocked', task, `${w}'s event loop blocked from ${formatMs(e.atMs)}`, [
        `${task}: event loop blocked`,
        'no timer, no I/O callback and no lease renewal can run meanwhile',
      ]);
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
        lane.host = e.host ?? null;
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
        pushSpan({
          id: `call-${e.seq}`,
          kind: 'call',
          startMs,
          endMs: e.atMs,
          label: `${w} call to ${e.target} from ${formatMs(startMs)}`,
          details: [`answered ${e.status}`],
        });
        break;
      }
      case 'event-loop-blocked':
        startBlocked(e.task);
        break;
      case 'event-loop-unblocked':
        endSpan('blocked', e.task, `finished ${at(e.atMs)}`);
        break;
      case 'clock-skewed':
        clocks.set(w, e);
        break;
      // The old forms (oldEventForms), in recordings made before the two facts above existed.
      case 'note': {
        const oldClock = oldClockNote(e.text);
        if (oldClock) clocks.set(w, oldClock);
        break;
      }
      case 'work-started': {
        const oldTask = oldBlockTask(e.label);
        if (oldTask !== null) startBlocked(oldTask);
        else startSpan('work', e.label, `${w} ${e.label} from ${formatMs(e.atMs)}`);
        break;
      }
      case 'work-finished': {
        const oldTask = oldBlockTask(e.label);
        if (oldTask !== null) endSpan('blocked', oldTask, `finished ${at(e.atMs)}`);
        else endSpan('work', e.label, `finished ${at(e.atMs)}`);
        break;
      }
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
      case 'fault-staged': {
        const f = nodeFault(e);
        if (f?.kind === 'cut' && f.on) {
          const span = startSpan('cut', f.node, `${w} cut from ${f.node} from ${formatMs(e.atMs)}`, [`isolation: ${e.mechanism}`]);
          span.caption = `${f.node} cut`;
        } else if (f?.kind === 'cut') endSpan('cut', f.node, `rejoined ${at(e.atMs)}`);
        else if (f?.on) {
          const words = f.slowWords ?? f.node;
          const span = startSpan('slow', f.node, `${w}'s traffic with ${f.node} slowed from ${formatMs(e.atMs)}`, [
            `${words}, each way: ${e.mechanism}`,
          ]);
          span.caption = words;
        } else if (f) endSpan('slow', f.node, `restored ${at(e.atMs)}`);
        break;
      }
      case 'process-killed':
        lane.died = true;
        lane.fate = `killed by ${e.signal}`;
        endAll();
        break;
      case 'worker-exited':
        if (!lane.died) {
          lane.died = e.signal !== null;
          lane.fate = e.signal !== null ? `died by ${e.signal}` : e.pooled ? 'kept warm' : `exited ${e.code ?? ''}`.trim();
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
    lane.marks.push({ id: `mark-${e.seq}`, atMs: e.atMs, ...body });
    lane.markKinds.add(body.kind);
    if (body.kind === 'death') lane.hasDeath = true;
  },

  finish({ lanes, open, clocks }, events) {
    const summary = runSummary(events);
    const leases = deriveLeases(events);
    // Spans still going may change with the next events: the value gets copies, and when
    // the run has ended they stop at its end.
    const going = new Set([...open.values()].map((o) => o.span));
    const references = new Set([...clocks.values()].map((c) => c.reference));
    return summary.workers.map((workerId, index): Lane => {
      const lane = lanes.get(workerId);
      return {
        clock: clockLine(clocks.get(workerId), references.has(workerId)),
        workerId,
        index,
        pid: lane?.pid ?? null,
        host: lane?.host ?? null,
        leases: leases.filter((l) => l.workerId === workerId),
        spans: (lane?.spans ?? []).map((s) => (going.has(s) ? { ...s, details: [...s.details], endMs: summary.endMs } : s)),
        marks: lane ? lane.marks.slice() : [],
        fate: lane?.fate ?? null,
        died: lane?.died ?? false,
        spanKinds: new Set(lane?.spanKinds),
        markKinds: new Set(lane?.markKinds),
      };
    });
  },
});

const rosterCache = new WeakMap<readonly string[], Lane[]>();

/**
 * Empty lanes for the workers a run will have, before its run-started names them (one value
 * per roster: the same lanes each time, so nothing is drawn twice).
 */
export function rosterLanes(workers: readonly string[]): Lane[] {
  let lanes = rosterCache.get(workers);
  if (!lanes) {
    lanes = workers.map((workerId, index) => ({
      workerId,
      index,
      pid: null,
      host: null,
      leases: [],
      spans: [],
      marks: [],
      fate: null,
      died: false,
      clock: null,
      spanKinds: new Set<SpanKind>(),
      markKinds: new Set<Mark['kind']>(),
    }));
    rosterCache.set(workers, lanes);
  }
  return lanes;
}

// Where each worker is in the variant's code, at any moment of the run. A line of code is
// an anchor when it emits an event type (`type: 'lease-acquired'`) or names a checkpoint
// (`checkpoint('holding-lock')`); a worker is at the anchor of its latest such event.
import type { VariantManifest } from '@racelab/shared';
import { foldOnLog, type EventLog } from './memo.js';

export interface CodeAnchors {
  /** Event type → 0-based line numbers that emit it, in order. */
  byType: Map<string, number[]>;
  /** Checkpoint name → its 0-based line. */
  byCheckpoint: Map<string, number>;
}

export type StepState = 'running' | 'stalled' | 'killed' | 'done';

export interface StepPoint {
  atMs: number;
  /** 0-based line, or null before the worker reached any anchor. */
  line: number | null;
  state: StepState;
}

export interface WorkerStep extends StepPoint {
  workerId: string;
}

// Both are read on every render of the code panel, for one of a few sources: computed once each.
const linesOf = new Map<string, string[]>();
const anchorsOf = new Map<string, CodeAnchors>();

/** The source's lines (shared: do not change the array). */
export function codeLines(code: string): string[] {
  let lines = linesOf.get(code);
  if (!lines) linesOf.set(code, (lines = code.replace(/\s+$/, '').split('\n')));
  return lines;
}

export function codeAnchors(code: string): CodeAnchors {
  const known = anchorsOf.get(code);
  if (known) return known;
  const byType = new Map<string, number[]>();
  const byCheckpoint = new Map<string, number>();
  codeLines(code).forEach((text, line) => {
    for (const m of text.matchAll(/type:\s*'([a-z-]+)'/g)) byType.set(m[1]!, [...(byType.get(m[1]!) ?? []), line]);
    for (const m of text.matchAll(/checkpoint\(\s*'([^']+)'/g)) if (!byCheckpoint.has(m[1]!)) byCheckpoint.set(m[1]!, line);
  });
  const anchors = { byType, byCheckpoint };
  anchorsOf.set(code, anchors);
  return anchors;
}

/** The anchor for an event type: the first one after the worker's current line, else the first. */
function lineFor(candidates: number[] | undefined, current: number | null): number | null {
  if (!candidates || candidates.length === 0) return null;
  return candidates.find((l) => current === null || l > current) ?? candidates[0]!;
}

type StepTimeline = Map<string, StepPoint[]>;

/** One fold per variant (its anchors are its own). */
const stepFolds = new WeakMap<VariantManifest, (events: EventLog) => StepTimeline>();

/** Per worker, every moment its line or state changed. */
export function deriveStepTimeline(events: EventLog, variant: VariantManifest): StepTimeline {
  let fold = stepFolds.get(variant);
  if (!fold) stepFolds.set(variant, (fold = stepFold(codeAnchors(variant.code))));
  return fold(events);
}

function stepFold(anchors: CodeAnchors): (events: EventLog) => StepTimeline {
  return foldOnLog<StepTimeline, StepTimeline>({
    init: () => new Map(),
    step(out, e) {
      const w = e.workerId;
      if (w === null) return;
      const points = out.get(w) ?? [];
      out.set(w, points);
      const last = points[points.length - 1] ?? { atMs: 0, line: null, state: 'running' as StepState };
      if (last.state === 'killed' || last.state === 'done') return;
      let next: StepPoint | null = null;
      switch (e.type) {
        case 'process-paused':
          next = { ...last, atMs: e.atMs, state: 'stalled' };
          break;
        case 'process-resumed':
          next = { ...last, atMs: e.atMs, state: 'running' };
          break;
        case 'process-killed':
          next = { ...last, atMs: e.atMs, state: 'killed' };
          break;
        case 'worker-exited':
          next = { ...last, atMs: e.atMs, state: e.signal !== null ? 'killed' : 'done' };
          break;
        case 'checkpoint-reached': {
          const line = anchors.byCheckpoint.get(e.checkpoint);
          if (line !== undefined) next = { atMs: e.atMs, line, state: last.state };
          break;
        }
        default: {
          const line = lineFor(anchors.byType.get(e.type), last.line);
          if (line !== null) next = { atMs: e.atMs, line, state: last.state };
        }
      }
      if (next && (next.line !== last.line || next.state !== last.state || points.length === 0)) points.push(next);
    },
    // The points grow with the next events: the value gets copies.
    finish: (out) => new Map([...out].map(([w, points]) => [w, points.slice()])),
  });
}

/** The last point at or before `atMs` (binary search); null before the first. */
function pointAt(points: StepPoint[], atMs: number): StepPoint | null {
  let lo = 0;
  let hi = points.length - 1;
  let found: StepPoint | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.atMs <= atMs) {
      found = points[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Where each worker is at `atMs` (null: at the latest event), in lane order. */
export function stepsAt(timeline: Map<string, StepPoint[]>, workers: string[], atMs: number | null): WorkerStep[] {
  return workers.flatMap((workerId) => {
    const points = timeline.get(workerId) ?? [];
    const p = atMs === null ? points[points.length - 1] : pointAt(points, atMs);
    return p ? [{ workerId, ...p }] : [];
  });
}

/** A short key that changes only when some worker's line or state changes. */
export function stepsKey(steps: WorkerStep[]): string {
  return steps.map((s) => `${s.workerId}:${s.line}:${s.state}`).join('|');
}

/** "worker-1: line 19, killed"; a worker whose steps are all in code shared by the variants is "outside this code". */
export function stepWords(step: WorkerStep): string {
  const outside = step.state === 'running' ? 'not in this code yet' : 'outside this code';
  const where = step.line === null ? outside : `line ${step.line + 1}`;
  return `${step.workerId}: ${where}${step.state === 'running' ? '' : `, ${step.state}`}`;
}

/**
 * The step the code panel follows: the chosen worker's, else the first worker still in the
 * code (not done), else none. Its line is kept in view as the run goes on.
 */
export function followedStep(steps: WorkerStep[], chosen: string | null): WorkerStep | null {
  const mine = chosen === null ? undefined : steps.find((s) => s.workerId === chosen);
  if (mine) return mine.line === null ? null : mine;
  return steps.find((s) => s.line !== null && s.state !== 'done') ?? null;
}

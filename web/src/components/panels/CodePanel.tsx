// The selected variant's source, with the line each worker is at: live during a run, or
// at the playhead when one is set. Breakpoints of the fault plan are marked on their line.
import type { FaultRule } from '@racelab/shared';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import {
  codeAnchors,
  codeLines,
  deriveStepTimeline,
  followedStep,
  stepsAt,
  stepsKey,
  stepWords,
  type WorkerStep,
} from '../../model/codeSteps.js';
import type { IconName } from '../../model/icons.js';
import { Icon } from '../icons/Icon.js';
import { formatMs } from '../../model/timeScale.js';
import { runSummary } from '../../model/runSummary.js';
import { useStore, type State } from '../../store/index.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { selectHeldMs, selectVariant } from '../../store/selectors.js';
import { workerColor } from '../timeline/colors.js';

const stateIcon: Record<WorkerStep['state'], IconName> = { running: 'play', stalled: 'pause', killed: 'skull', done: 'stop' };

/**
 * Scrolls the code (not the page) so that `line` is in view, a third from the top, when it
 * is not. Asked by an
 * IntersectionObserver, which answers after the page's next layout: reading the boxes here
 * (getBoundingClientRect) would lay the whole page out again in the middle of a live run's
 * frame, every time the followed worker moves to another line.
 */
function useKeepInView(pre: RefObject<HTMLPreElement | null>, line: number | null): void {
  useEffect(() => {
    const root = pre.current;
    const el = line === null ? null : root?.querySelector<HTMLElement>(`[data-line="${line}"]`);
    if (!root || !el || typeof IntersectionObserver === 'undefined') return;
    const watch = new IntersectionObserver(
      ([seen]) => {
        watch.disconnect();
        if (!seen || seen.intersectionRatio >= 1 || !seen.rootBounds) return;
        root.scrollBy({ top: seen.boundingClientRect.top - seen.rootBounds.top - seen.rootBounds.height / 3 });
      },
      { root, threshold: 1 },
    );
    watch.observe(el);
    return () => watch.disconnect();
  }, [pre, line]);
}

/** The run on screen of the selected variant, if any. */
const selectVariantRunId = (s: State): string | null =>
  s.shown.find((id) => s.runs[id]?.scenario === s.scenarioId && s.runs[id]?.variant === s.variantId) ?? null;

function breakpointWords(rules: FaultRule[]): string {
  return rules
    .map((r) => `${r.target === 'first' ? 'first worker' : r.target} ${r.action === 'kill' ? 'dies' : `stalls ${r.ms ?? 0} ms`}`)
    .join(', ');
}

const NO_WORKERS: string[] = [];

/** The variant's source with the line each worker is at and the plan's breakpoints. */
function codeSource(
  code: string,
  variantId: string,
  steps: WorkerStep[],
  faults: FaultRule[],
  workers: string[],
  pre: RefObject<HTMLPreElement | null>,
) {
  const lines = codeLines(code);
  const byLine = new Map<number, WorkerStep[]>();
  for (const step of steps)
    if (step.line !== null && step.state !== 'done') byLine.set(step.line, [...(byLine.get(step.line) ?? []), step]);
  const anchors = codeAnchors(code).byCheckpoint;
  const breakpoints = new Map<number, FaultRule[]>();
  for (const rule of faults) {
    const line = anchors.get(rule.checkpoint);
    if (line !== undefined) breakpoints.set(line, [...(breakpoints.get(line) ?? []), rule]);
  }
  return (
    // A region: a named box that a keyboard can focus and scroll (a bare pre may not carry a name).
    <pre className="code-block" tabIndex={0} role="region" aria-label={`Source of ${variantId}`} ref={pre}>
      <code>
        {lines.map((line, i) => {
          const here = byLine.get(i);
          const bp = breakpoints.get(i);
          return (
            <span className={`code-line${here ? ' current' : ''}${bp ? ' breakpoint' : ''}`} key={i} data-line={i}>
              {line}
              {bp && <span className="bp-tag">● {breakpointWords(bp)}</span>}
              {here?.map((s) => (
                <span
                  key={s.workerId}
                  className={`step-tag ${s.state}`}
                  style={{ '--worker': workerColor(workers.indexOf(s.workerId)) } as CSSProperties}
                >
                  <Icon name={stateIcon[s.state]} /> {s.workerId}
                </span>
              ))}
              {'\n'}
            </span>
          );
        })}
      </code>
    </pre>
  );
}

export function CodePanel() {
  const variant = useStore(selectVariant);
  const runId = useStore(selectVariantRunId);
  // The log up to the cursor; a held cursor (the playhead) names its moment.
  const drawnLog = useDrawnLog(runId);
  const events = runId ? drawnLog : undefined;
  const faults = useStore((s) => s.faults);
  const playheadMs = useStore(selectHeldMs);
  const [chosen, setChosen] = useState<string | null>(null);
  const pre = useRef<HTMLPreElement>(null);
  const steps = events && variant ? stepsAt(deriveStepTimeline(events, variant), runSummary(events).workers, playheadMs) : [];
  const followed = followedStep(steps, chosen);
  const followedLine = followed?.line ?? null;
  useKeepInView(pre, followedLine);
  const workers = events ? runSummary(events).workers : NO_WORKERS;
  // The source is drawn again only when a worker's line or state changes (or the plan, or
  // the variant), not for every batch of a live run's events.
  const key = stepsKey(steps);
  const workersKey = workers.join(' ');
  // `key` and `workersKey` stand for `steps` and `workers` in the dependencies; `pre` is only
  // attached to the <pre>, not read.
  /* eslint-disable react-hooks/refs, react-hooks/exhaustive-deps */
  const source = useMemo(
    () => (variant ? codeSource(variant.code, variant.id, steps, faults, workers, pre) : null),
    [variant, key, faults, workersKey],
  );
  /* eslint-enable react-hooks/refs, react-hooks/exhaustive-deps */
  if (!variant) return null;
  return (
    <section className="panel code" aria-labelledby="code-title">
      <div className="panel-head">
        <h2 id="code-title">Code</h2>
        <p className="run-of">
          <code>{variant.id}</code> — {variant.title}{' '}
          <span className={`badge ${variant.correct ? 'correct' : 'broken'}`}>{variant.correct ? '✓ correct' : '✗ broken'}</span>
        </p>
      </div>
      {source}
      {events && (
        <div className="steps">
          <p className="steps-when">{playheadMs === null ? 'Now:' : `At ${formatMs(playheadMs)} (playhead):`}</p>
          {steps.length === 0 && <p className="steps-when">no worker is in this code yet</p>}
          <ul aria-label="Where each worker is">
            {steps.map((s) => (
              <li key={s.workerId} style={{ '--worker': workerColor(workers.indexOf(s.workerId)) } as CSSProperties}>
                <button
                  type="button"
                  className="follow"
                  aria-pressed={followed?.workerId === s.workerId}
                  title="Keep this worker's line in view"
                  onClick={() => setChosen(s.workerId)}
                >
                  {stepWords(s)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

// The selected variant's source, with the line each worker is at: live during a run, or
// at the playhead when one is set. Breakpoints of the fault plan are marked on their line.
import type { FaultRule } from '@racelab/shared';
import type { CSSProperties } from 'react';
import { useStore as useZustand } from 'zustand';
import { codeAnchors, codeLines, deriveStepTimeline, stepsAt, stepWords, type WorkerStep } from '../../model/codeSteps.js';
import { formatMs } from '../../model/timeScale.js';
import { runSummary } from '../../model/runSummary.js';
import { useStore, type State } from '../../store/index.js';
import { selectVariant } from '../../store/selectors.js';
import { viewStore } from '../../view/viewStore.js';
import { workerColor } from '../timeline/colors.js';

const stateGlyph: Record<WorkerStep['state'], string> = { running: '▶', stalled: '⏸', killed: '☠', done: '■' };

/** The run on screen of the selected variant, if any. */
const selectVariantRunId = (s: State): string | null =>
  s.shown.find((id) => s.runs[id]?.scenario === s.scenarioId && s.runs[id]?.variant === s.variantId) ?? null;

function breakpointWords(rules: FaultRule[]): string {
  return rules.map((r) => `${r.target === 'first' ? 'first worker' : r.target} ${r.action === 'kill' ? 'dies' : `stalls ${r.ms ?? 0} ms`}`).join(', ');
}

export function CodePanel() {
  const variant = useStore(selectVariant);
  const runId = useStore(selectVariantRunId);
  const events = useStore((s) => (runId ? s.runs[runId]?.events : undefined));
  const faults = useStore((s) => s.faults);
  const playheadMs = useZustand(viewStore, (s) => s.playheadMs);
  if (!variant) return null;
  const lines = codeLines(variant.code);
  const workers = events ? runSummary(events).workers : [];
  const steps = events ? stepsAt(deriveStepTimeline(events, variant), workers, playheadMs) : [];
  const byLine = new Map<number, WorkerStep[]>();
  for (const step of steps) if (step.line !== null && step.state !== 'done') byLine.set(step.line, [...(byLine.get(step.line) ?? []), step]);
  const anchors = codeAnchors(variant.code).byCheckpoint;
  const breakpoints = new Map<number, FaultRule[]>();
  for (const rule of faults) {
    const line = anchors.get(rule.checkpoint);
    if (line !== undefined) breakpoints.set(line, [...(breakpoints.get(line) ?? []), rule]);
  }
  return (
    <section className="panel code" aria-labelledby="code-title">
      <div className="panel-head">
        <h2 id="code-title">Code</h2>
        <p className="run-of">
          <code>{variant.id}</code> — {variant.title}{' '}
          <span className={`badge ${variant.correct ? 'correct' : 'broken'}`}>{variant.correct ? '✓ correct' : '✗ broken'}</span>
        </p>
      </div>
      <pre className="code-block" tabIndex={0} aria-label={`Source of ${variant.id}`}>
        <code>
          {lines.map((line, i) => {
            const here = byLine.get(i);
            const bp = breakpoints.get(i);
            return (
              <span className={`code-line${here ? ' current' : ''}${bp ? ' breakpoint' : ''}`} key={i}>
                {line}
                {bp && <span className="bp-tag">● {breakpointWords(bp)}</span>}
                {here?.map((s) => (
                  <span key={s.workerId} className={`step-tag ${s.state}`} style={{ '--worker': workerColor(workers.indexOf(s.workerId)) } as CSSProperties}>
                    {stateGlyph[s.state]} {s.workerId}
                  </span>
                ))}
                {'\n'}
              </span>
            );
          })}
        </code>
      </pre>
      {events && (
        <div className="steps">
          <p className="steps-when">{playheadMs === null ? 'Now:' : `At ${formatMs(playheadMs)} (playhead):`}</p>
          {steps.length === 0 && <p className="steps-when">no worker is in this code yet</p>}
          <ul aria-label="Where each worker is">
            {steps.map((s) => (
              <li key={s.workerId} style={{ '--worker': workerColor(workers.indexOf(s.workerId)) } as CSSProperties}>
                {stepWords(s)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

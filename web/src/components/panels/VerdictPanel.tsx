// The verdict in numbers ("E-mails sent: 3 — should be 1", each line held or not, a
// PASS/FAIL headline) and what happened in plain words. Everything comes from the run's
// events: run-finished / run-failed for the numbers, the whole log for the story.
import { runLostWords, type EventOf } from '@racelab/shared';
import type { Cursor } from '../../model/cursor.js';
import type { EventLog } from '../../model/memo.js';
import { inLineWords } from '../../model/inLine.js';
import { runSummary } from '../../model/runSummary.js';
import { formatMs } from '../../model/timeScale.js';
import { deriveVerdict } from '../../model/verdict.js';
import { useStore } from '../../store/index.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { scenarioOfRun, selectRunFacts, type RunFacts } from '../../store/selectors.js';
import { runTitle } from './runTitle.js';
import { StoryList } from './StoryList.js';

const NONE: EventOf<'run-started'>['faults'] = [];

function sourceWords(run: RunFacts | undefined, events: EventLog, cursor: Cursor): string {
  if (!run) return '';
  const speed = runSummary(events).started?.speed ?? 1;
  const parts = [
    speed !== 1 ? `at ${speed}×` : '',
    run.source === 'recording' ? 'recorded run' : '',
    cursor.mode === 'replay' ? `replay at ${cursor.rate}×` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The verdict of one run (`runId`), or of the run on top of the screen. */
export function VerdictPanel({ runId, named = false }: { runId?: string; named?: boolean }) {
  const id = useStore((s) => runId ?? s.shown[0] ?? null);
  const run = useStore((s) => selectRunFacts(s, id));
  const scenario = useStore((s) => scenarioOfRun(s, id ? s.runs[id] : undefined));
  const pending = useStore((s) => (runId ? null : (s.pending[0] ?? null)));
  // The verdict and the story as they stood at the cursor (the end, once it is there).
  const events = useDrawnLog(id);
  const cursor = useStore((s) => s.cursor);
  const view = deriveVerdict(events, scenario);
  const ref = pending ?? run;
  const title = ref
    ? runTitle(
        scenarioOfRun(useStore.getState(), run) ?? useStore.getState().catalog?.find((c) => c.id === ref.scenario),
        ref.scenario,
        ref.variant,
      )
    : null;
  const faults = runSummary(events).started?.faults ?? NONE;

  let status: { cls: string; text: string };
  const inLine = useStore((s) => (runId ? null : (s.pending.find((p) => p.queued)?.queued ?? null)));
  if (inLine) status = { cls: 'waiting', text: `Every run slot is taken: ${inLineWords(inLine.position, inLine.estimateMs)}` };
  else if (pending) status = { cls: 'waiting', text: 'Starting…' };
  else if (view.state === 'finished') status = { cls: view.pass ? 'pass' : 'fail', text: view.headline };
  else if (view.state === 'failed') status = { cls: 'error', text: 'ERROR — the run failed' };
  else if (run?.serverLost) status = { cls: 'lost', text: 'LOST — the run went with its server' };
  else if (run?.lost) status = { cls: 'error', text: 'Connection lost during the run — reconnecting to follow it…' };
  else if (title && cursor.mode === 'replay') status = { cls: 'waiting', text: 'Replaying…' };
  else if (title && cursor.mode === 'held') status = { cls: 'waiting', text: `At ${formatMs(cursor.atMs)} (playhead) — Esc for now` };
  else if (title) status = { cls: 'waiting', text: 'Running…' };
  else status = { cls: 'idle', text: 'No run yet: choose a variant and press Run.' };
  const headingId = `verdict-title${runId ? `-${runId}` : ''}`;
  const extra = sourceWords(run, events, cursor);

  // A Tab stop of its own: where the verdict sits in a box of fixed size (beside the
  // timeline, on stage) it scrolls, and a keyboard must be able to scroll it.
  return (
    <section
      className="panel verdict"
      tabIndex={0}
      {...(named && title ? { 'aria-label': `Verdict of ${title}` } : { 'aria-labelledby': headingId })}
    >
      <div className="panel-head">
        <h2 id={headingId}>Verdict</h2>
        {title && <p className="run-of">{title}</p>}
        {extra && <p className="run-of source">{extra}</p>}
        {faults.length > 0 && (
          <p className="run-of source">breakpoints: {faults.map((f) => `${f.action} at ${f.checkpoint}`).join(', ')}</p>
        )}
      </div>
      <p className={`headline ${status.cls}`} role="status">
        {status.text}
      </p>
      {run?.serverLost && view.state !== 'finished' && view.state !== 'failed' && !pending && (
        <div className="run-lost" role="alert">
          <p>{runLostWords(run.serverLost.server)}</p>
          <button type="button" onClick={() => useStore.getState().runAgain(run.runId)}>
            Run it again
          </button>
        </div>
      )}
      {inLine && (
        <button type="button" className="leave-line" onClick={() => useStore.getState().leaveQueue()}>
          Leave the line
        </button>
      )}
      {view.state === 'failed' && (
        <p className="run-failed" role="alert">
          {view.message}
        </p>
      )}
      {view.state === 'finished' && !pending && (
        <>
          {view.expectation && (
            <p
              className={`expectation ${view.expectation.asExpected ? 'expected' : 'unexpected'}`}
              {...(view.expectation.asExpected ? {} : { role: 'alert' })}
            >
              {view.expectation.text}
            </p>
          )}
          <ul className="verdict-lines" aria-label="Numbers">
            {view.lines.map((l) => (
              <li key={l.id} className={l.held ? 'held' : 'broken'}>
                <span className="held-mark">{l.held ? '✓ held' : '✗ not held'}</span> <span className="numbers">{l.text}</span>{' '}
                <span className="invariant">{l.invariant}</span>
              </li>
            ))}
          </ul>
          {view.others.length > 0 && (
            <p className="other-metrics">
              Also measured:{' '}
              {view.others.map((m, i) => (
                <span key={m.name}>
                  {i > 0 && ' · '}
                  {m.text}
                </span>
              ))}
            </p>
          )}
          <StoryList events={events} />
        </>
      )}
    </section>
  );
}

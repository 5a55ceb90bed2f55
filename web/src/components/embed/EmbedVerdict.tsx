// The embed's verdict: which run this is, and its headline and numbers as they stood at the
// playhead (the whole verdict once the playhead is at the end). The numbers give way first
// when the frame is short (embed.css).
import { formatMs } from '../../model/timeScale.js';
import { deriveVerdict } from '../../model/verdict.js';
import { useDrawnLog } from '../../store/drawnLog.js';
import { useStore } from '../../store/index.js';
import { scenarioOfRun, selectRunFacts } from '../../store/selectors.js';
import { runTitle } from '../panels/runTitle.js';

export function EmbedVerdict() {
  const id = useStore((s) => s.shown[0] ?? null);
  const run = useStore((s) => selectRunFacts(s, id));
  const scenario = useStore((s) => scenarioOfRun(s, run));
  const notice = useStore((s) => s.notice);
  const cursor = useStore((s) => s.cursor);
  const events = useDrawnLog(id);
  const view = deriveVerdict(events, scenario);
  const status =
    view.state === 'finished'
      ? { cls: view.pass ? 'pass' : 'fail', text: view.headline }
      : view.state === 'failed'
        ? { cls: 'error', text: 'ERROR — the run failed' }
        : run?.lost && events.length === 0
          ? { cls: 'waiting', text: 'Waiting for the run…' }
          : run
            ? {
                cls: 'waiting',
                text: cursor.mode === 'held' ? `At ${formatMs(cursor.atMs)}` : cursor.mode === 'replay' ? 'Playing…' : 'Running…',
              }
            : { cls: 'idle', text: 'No run yet' };
  return (
    <section className="embed-verdict" aria-label="Verdict">
      <p className="embed-title">{run ? runTitle(scenario, run.scenario, run.variant) : 'racelab'}</p>
      <p className={`headline ${status.cls}`} role="status">
        {status.text}
      </p>
      {view.state === 'finished' && (
        <ul className="embed-lines" aria-label="Numbers">
          {view.lines.map((l) => (
            <li key={l.id} className={l.held ? 'held' : 'broken'}>
              {l.held ? '✓' : '✗'} {l.text}
            </li>
          ))}
        </ul>
      )}
      {notice && (
        <p className="embed-notice" role="alert">
          {notice}
        </p>
      )}
    </section>
  );
}

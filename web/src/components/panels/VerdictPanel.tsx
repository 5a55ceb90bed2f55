// The verdict in numbers: "E-mails sent: 3 — should be 1", each line held or not, and a
// PASS/FAIL headline. Everything comes from the run's run-finished / run-failed events.
import { deriveVerdict } from '../../model/verdict.js';
import { useStore } from '../../store/index.js';
import { selectCurrentEvents, selectCurrentRun, selectRunScenario } from '../../store/selectors.js';
import { variantName } from '../controls/VariantPicker.js';

function useRunTitle(): string | null {
  const pending = useStore((s) => s.pending);
  const run = useStore(selectCurrentRun);
  const catalog = useStore((s) => s.catalog);
  const ref = pending ?? run;
  if (!ref) return null;
  const variant = catalog?.find((c) => c.id === ref.scenario)?.variants.find((v) => v.id === ref.variant);
  return `${ref.scenario} · ${variant ? variantName(variant.id, variant.correct) : ref.variant}`;
}

export function VerdictPanel() {
  const events = useStore(selectCurrentEvents);
  const scenario = useStore(selectRunScenario);
  const pending = useStore((s) => s.pending !== null);
  const lost = useStore((s) => selectCurrentRun(s)?.lost ?? false);
  const title = useRunTitle();
  const view = deriveVerdict(events, scenario);

  let status: { cls: string; text: string };
  if (pending) status = { cls: 'waiting', text: 'Starting…' };
  else if (view.state === 'finished') status = { cls: view.pass ? 'pass' : 'fail', text: view.headline };
  else if (view.state === 'failed') status = { cls: 'error', text: 'ERROR — the run failed' };
  else if (lost) status = { cls: 'error', text: 'Connection lost during the run — no verdict' };
  else if (title) status = { cls: 'waiting', text: 'Running…' };
  else status = { cls: 'idle', text: 'No run yet: choose a variant and press Run.' };

  return (
    <section className="panel verdict" aria-labelledby="verdict-title">
      <div className="panel-head">
        <h2 id="verdict-title">Verdict</h2>
        {title && <p className="run-of">{title}</p>}
      </div>
      <p className={`headline ${status.cls}`} role="status">
        {status.text}
      </p>
      {view.state === 'failed' && (
        <p className="run-failed" role="alert">
          {view.message}
        </p>
      )}
      {view.state === 'finished' && !pending && (
        <>
          <ul className="verdict-lines">
            {view.lines.map((l) => (
              <li key={l.id} className={l.held ? 'held' : 'broken'}>
                <span className="held-mark">{l.held ? '✓ held' : '✗ not held'}</span>{' '}
                <span className="numbers">{l.text}</span>{' '}
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
        </>
      )}
    </section>
  );
}

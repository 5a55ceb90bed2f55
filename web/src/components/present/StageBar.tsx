// In presenter mode the controls are hidden: this bar names what is on stage (scenario,
// variant, chapter), keeps Run and the variant toggle one click (or one key) away, and
// says why a run did not start, or that Run replays a link's schedule, since the form that
// would say it is hidden. Four parts
// (what, buttons, about, look) that present.css lays out in two rows or three.
import { chapterIndex, chaptersOf, chapterWords } from '../../app/chapters.js';
import { perform } from '../../app/useShortcuts.js';
import { useStore } from '../../store/index.js';
import { selectChapterExercises, selectRunInProgress, selectScenario, selectVariant } from '../../store/selectors.js';
import { ConnectionStatus } from '../ConnectionStatus.js';
import { scheduleWords } from '../controls/RunControls.js';
import { speedWords } from '../controls/SpeedControl.js';
import { PresentControls } from './PresentControls.js';

function Chapter() {
  const catalog = useStore((s) => s.catalog);
  const scenarioId = useStore((s) => s.scenarioId);
  const variantId = useStore((s) => s.variantId);
  const blank = useStore((s) => s.shown.length === 0 && s.pending.length === 0);
  const exercise = useStore((s) => s.exercise !== null);
  const exercises = useStore(selectChapterExercises);
  if (!catalog) return null;
  const chapters = chaptersOf(catalog, exercises);
  const i = chapterIndex(chapters, { scenario: scenarioId, variant: variantId, blank, exercise });
  const c = chapters[i];
  if (!c) return null;
  return (
    <span className="stage-chapter" title="← and → step through the chapters">
      chapter {i + 1} of {chapters.length}: {chapterWords(c)}
    </span>
  );
}

export function StageBar() {
  const scenario = useStore(selectScenario);
  const variant = useStore(selectVariant);
  const speed = useStore((s) => s.speed);
  const busy = useStore(selectRunInProgress);
  const connected = useStore((s) => s.transport !== null);
  const runError = useStore((s) => s.runError);
  const schedule = useStore((s) => s.schedule);
  return (
    <div className="stage-bar" role="group" aria-label="On stage">
      <div className="stage-what">
        {scenario && (
          <span className="stage-scenario" title={scenario.title}>
            {scenario.title}
          </span>
        )}
        {variant && (
          <span className={`badge ${variant.correct ? 'correct' : 'broken'}`}>
            {variant.id} {variant.correct ? '✓ correct' : '✗ broken'}
          </span>
        )}
        <Chapter />
      </div>
      <span className="stage-buttons">
        <button type="button" onClick={() => perform({ id: 'toggle-variant' })} title="V">
          Toggle variant
        </button>
        <button
          type="button"
          className="run"
          disabled={busy || !connected}
          onClick={() => perform({ id: 'run' })}
          title="R"
          aria-keyshortcuts="R"
        >
          Run
        </button>
        <button type="button" disabled={busy || !connected} onClick={() => perform({ id: 'compare' })} title="C">
          Run both side by side
        </button>
      </span>
      <div className="stage-about">
        {runError ? (
          <p className="stage-summary error" role="alert">
            The run did not start: {runError}
          </p>
        ) : schedule ? (
          // A link's schedule replaces the staged story: the audience sees the order the explorer found.
          <p className="stage-summary stage-schedule" role="status">
            {scheduleWords(schedule)}
          </p>
        ) : (
          <p className="stage-summary">{scenario?.summary}</p>
        )}
        <span className="stage-speed">{speedWords(speed)}</span>
      </div>
      <div className="stage-look">
        <PresentControls />
        <ConnectionStatus />
      </div>
    </div>
  );
}

// On a narrow screen, the one bar above the stage: what is set up (scenario and variant), a
// button that opens the controls' drawer, and Run — or, with no server behind the page, a
// replay of the recording on screen. Everything else is one tap away in the drawer.
import { replayShown } from '../../replay/player.js';
import { useStore } from '../../store/index.js';
import { selectCurrentRunId, selectRunInProgress, selectScenario, selectVariant } from '../../store/selectors.js';
import { DRAWER_ID, useDrawer } from './ControlsDrawer.js';
import { RunControls } from './RunControls.js';

/** Replays the run on screen at the chosen speed: what Run is where there is no server. */
function ReplayButton() {
  const currentId = useStore(selectCurrentRunId);
  const busy = useStore(selectRunInProgress);
  const speed = useStore((s) => s.speed);
  return (
    <button
      type="button"
      className="run"
      disabled={!currentId || busy}
      title={`Play the recorded run again, at ${speed}× (Space)`}
      aria-keyshortcuts="Space"
      onClick={() => replayShown(useStore, speed)}
    >
      Replay
    </button>
  );
}

export function SetupBar() {
  const scenario = useStore(selectScenario);
  const variant = useStore(selectVariant);
  const offline = useStore((s) => s.connection === 'offline');
  const open = useDrawer((s) => s.open);
  const setOpen = useDrawer((s) => s.setOpen);
  const what = [scenario?.id, variant && `${variant.id} (${variant.correct ? 'correct' : 'broken'})`].filter(Boolean).join(', ');
  return (
    <div className="setup-bar" role="group" aria-label="Setup">
      <button
        type="button"
        className="setup-open"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={DRAWER_ID}
        aria-label={what ? `Setup: ${what}` : 'Setup'}
        title="Scenario, variant, libraries, parameters, breakpoints, speed, compare, recordings"
        onClick={() => setOpen(true)}
      >
        <span className="setup-icon" aria-hidden="true">
          ☰
        </span>
        <span className="setup-what" aria-hidden="true">
          {scenario ? <span className="setup-scenario">{scenario.id}</span> : 'Setup'}
          {variant && <span className={`badge ${variant.correct ? 'correct' : 'broken'}`}>{variant.id}</span>}
        </span>
      </button>
      {offline ? <ReplayButton /> : <RunControls />}
    </div>
  );
}

// In presenter mode the controls are hidden: this bar names what is on stage and keeps
// Run and the variant toggle one click (or one key) away.
import { perform } from '../../app/useShortcuts.js';
import { useStore } from '../../store/index.js';
import { selectRunInProgress, selectScenario, selectVariant } from '../../store/selectors.js';
import { speedWords } from '../controls/SpeedControl.js';

export function StageBar() {
  const scenario = useStore(selectScenario);
  const variant = useStore(selectVariant);
  const speed = useStore((s) => s.speed);
  const busy = useStore(selectRunInProgress);
  const connected = useStore((s) => s.transport !== null);
  if (!scenario || !variant) return null;
  return (
    <div className="stage-bar" role="group" aria-label="On stage">
      <span className="stage-scenario">{scenario.title}</span>
      <span className={`badge ${variant.correct ? 'correct' : 'broken'}`}>
        {variant.id} {variant.correct ? '✓ correct' : '✗ broken'}
      </span>
      <span className="stage-speed">{speedWords(speed)}</span>
      <span className="stage-buttons">
        <button type="button" onClick={() => perform({ id: 'toggle-variant' })} title="V">
          Toggle variant
        </button>
        <button type="button" className="run" disabled={busy || !connected} onClick={() => perform({ id: 'run' })} title="R">
          Run
        </button>
        <button type="button" disabled={busy || !connected} onClick={() => perform({ id: 'compare' })} title="C">
          Run both side by side
        </button>
      </span>
      <span className="stage-hint">? for shortcuts</span>
    </div>
  );
}

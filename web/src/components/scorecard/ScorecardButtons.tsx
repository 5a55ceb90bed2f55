// The ways into the scorecard: a button in the header, and the way back to it from a run
// that one of its cells opened.
import { fromScorecard } from '../../app/scorecard.js';
import { useStore } from '../../store/index.js';
import { selectCurrentRun } from '../../store/selectors.js';
import { ToggleButton } from '../controls/ToggleButton.js';

export function ScorecardToggle() {
  const open = useStore((s) => s.scorecard);
  const setScorecard = useStore((s) => s.setScorecard);
  return (
    <ToggleButton
      pressed={open}
      onChange={setScorecard}
      className="scorecard-toggle"
      title="Lock libraries under faults: the matrix, each cell a recorded run"
    >
      Library scorecard
    </ToggleButton>
  );
}

export function BackToScorecard() {
  const shownFromScorecard = useStore((s) => fromScorecard(selectCurrentRun(s)?.file ?? null));
  const setScorecard = useStore((s) => s.setScorecard);
  if (!shownFromScorecard) return null;
  return (
    <button type="button" className="back-to-scorecard" onClick={() => setScorecard(true)}>
      ← Back to the scorecard
    </button>
  );
}

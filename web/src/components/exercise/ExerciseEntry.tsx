// The way into a scenario's exercise from its page: "Fix it yourself", where the server has
// an exercise for it (or, with no server, where there is a broken variant to read). Part of
// the page's bundle; the exercise itself, with its editor, loads when it opens.
import { exerciseShown } from '../../model/exercise/onServer.js';
import { useStore } from '../../store/index.js';
import { selectScenario } from '../../store/selectors.js';

export function ExerciseEntry() {
  const scenario = useStore(selectScenario);
  const has = useStore((s) => exerciseShown(s.exercises, scenario) !== null);
  const openExercise = useStore((s) => s.openExercise);
  if (!scenario || !has) return null;
  return (
    <button
      type="button"
      className="exercise-entry"
      onClick={() => openExercise(scenario.id)}
      title="Edit the broken code into a fix, and have it graded"
    >
      Fix it yourself
    </button>
  );
}

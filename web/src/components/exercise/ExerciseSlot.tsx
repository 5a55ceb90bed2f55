// Where the open exercise goes on a stage: the view and its editor are a chunk of their own,
// fetched when an exercise first opens (the page's bundle does not carry the editor).
import { lazy, Suspense } from 'react';

const ExerciseView = lazy(() => import('./ExerciseView.js'));

export function ExerciseSlot() {
  return (
    <Suspense fallback={<p className="exercise-note">Loading the exercise…</p>}>
      <ExerciseView />
    </Suspense>
  );
}

// Hints, opened one at a time and in order (the idea, the primitive, the shape of the code),
// and the reference solution, fetched only when asked for and only after a confirm.
import type { ExerciseSolution } from '@racelab/shared';
import { useState } from 'react';
import { fetchSolution } from '../../app/exercises.js';
import { ConfirmButton } from './ConfirmButton.js';

export function ExerciseHints({ hints, open, onOpen }: { hints: readonly string[]; open: number; onOpen(count: number): void }) {
  if (hints.length === 0) return null;
  const shown = hints.slice(0, open);
  return (
    <section className="exercise-hints" aria-labelledby="exercise-hints-title">
      <h3 id="exercise-hints-title">Hints</h3>
      {shown.length > 0 && (
        <ol className="exercise-hint-list">
          {shown.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ol>
      )}
      {open < hints.length ? (
        <button type="button" onClick={() => onOpen(open + 1)}>
          {open === 0 ? 'Show a hint' : 'Show the next hint'} ({open + 1} of {hints.length})
        </button>
      ) : (
        <p className="exercise-note">That is every hint.</p>
      )}
    </section>
  );
}

export function ExerciseSolutionPart({ scenario, onUse }: { scenario: string; onUse(code: string): void }) {
  const [solution, setSolution] = useState<ExerciseSolution | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const show = async () => {
    setAsking(true);
    const fetched = await fetchSolution(scenario);
    setAsking(false);
    if (fetched.ok) setSolution(fetched.solution);
    else setError(fetched.error);
  };
  return (
    <section className="exercise-solution" aria-labelledby="exercise-solution-title">
      <h3 id="exercise-solution-title">Reference solution</h3>
      {solution ? (
        <>
          <p className="exercise-note">
            {solution.title} (<code>{solution.variant}</code>), the scenario’s correct variant.
          </p>
          <pre className="exercise-solution-code" tabIndex={0} aria-label={`Reference solution: ${solution.title}`}>
            {solution.code}
          </pre>
          <ConfirmButton
            label="Put the solution in the editor"
            question="Replace your code with the solution?"
            confirm="Replace my code"
            onConfirm={() => onUse(solution.code)}
          />
        </>
      ) : (
        <ConfirmButton
          label={asking ? 'Fetching the solution…' : 'Show solution'}
          question="See the reference solution? Try the hints first."
          confirm="Show it"
          disabled={asking}
          onConfirm={() => void show()}
        />
      )}
      {error && (
        <p className="error" role="alert">
          The solution did not come: {error}
        </p>
      )}
    </section>
  );
}

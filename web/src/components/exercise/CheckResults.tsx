// A check's results as they stream: the headline (or "Solved: every set passes"), then each
// set pending, running, passed or failed; a failed set with the verdict's words, the set's
// reason, and the near-miss it behaves as. Compile errors with their line (a button moves
// the editor there); a refusal as the server said it.
import type { ExerciseCompileError } from '@racelab/shared';
import { checkHeadline, checking, setLabel, solved, type CheckState, type SetRow } from '../../model/exercise/checkResult.js';

const STATE_WORDS: Record<SetRow['state'], string> = { pending: 'waiting', running: 'running…', passed: 'passed', failed: 'failed' };

function SetResult({ row }: { row: SetRow }) {
  const result = row.result;
  return (
    <li className={`exercise-set ${row.state}`} aria-label={`${setLabel(row)}: ${STATE_WORDS[row.state]}`}>
      <div className="exercise-set-line">
        <span className="exercise-set-state">{STATE_WORDS[row.state]}</span>
        <span className="exercise-set-label">{setLabel(row)}</span>
      </div>
      {row.state === 'failed' && result && (
        <div className="exercise-set-failure">
          <p className="exercise-set-summary">{result.summary}</p>
          {result.failures.length > 0 && (
            <ul className="exercise-set-failures" aria-label="What the verdict found">
              {result.failures.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          )}
          {/* The server's summary names the set's reason already ("fails at …: <reason>"); said once. */}
          {row.set && !result.summary.includes(row.set.reason) && <p className="exercise-set-reason">Why this set: {row.set.reason}</p>}
          {result.nearMiss && (
            <p className="exercise-near-miss">
              <strong>Near-miss: {result.nearMiss.title}.</strong> {result.nearMiss.mistake}
            </p>
          )}
        </div>
      )}
    </li>
  );
}

function CompileErrors({ errors, onGoTo }: { errors: readonly ExerciseCompileError[]; onGoTo(line: number): void }) {
  return (
    <ul className="exercise-compile-errors" aria-label="Compile errors">
      {errors.map((e, i) => (
        <li key={`${i}-${e.line ?? 0}`}>
          {e.line !== undefined ? (
            <button type="button" className="link-button" onClick={() => onGoTo(e.line ?? 1)}>
              Line {e.line}
            </button>
          ) : (
            <span>No line</span>
          )}
          : <span className="exercise-compile-message">{e.message}</span>
        </li>
      ))}
    </ul>
  );
}

export function CheckResults({ check, onGoTo }: { check: CheckState; onGoTo(line: number): void }) {
  if (check.phase === 'idle') return null;
  const headline = checkHeadline(check);
  return (
    <section className="exercise-results" aria-labelledby="exercise-results-title" aria-busy={checking(check)}>
      <h3 id="exercise-results-title">Check my fix</h3>
      <p className={`exercise-headline ${solved(check) ? 'solved' : check.phase}`} role="status">
        {headline}
      </p>
      {check.problem && (
        <p className="error" role="alert">
          {check.problem}
        </p>
      )}
      {check.phase === 'not-compiled' && <CompileErrors errors={check.errors} onGoTo={onGoTo} />}
      {check.rows.length > 0 && (
        <ol className="exercise-sets" aria-label="Sets the fix is graded at">
          {check.rows.map((row) => (
            <SetResult key={row.index} row={row} />
          ))}
        </ol>
      )}
    </section>
  );
}

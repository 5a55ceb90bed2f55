// Every exercise on this server, with the ones solved in this browser marked; each opens
// its exercise, and each with progress can forget it (its code, hints and solved mark).
import type { ExerciseInfo } from '@racelab/shared';
import { progressOf, type Progress } from '../../model/exercise/progress.js';
import { ConfirmButton } from './ConfirmButton.js';

export interface ExerciseIndexProps {
  exercises: readonly ExerciseInfo[];
  progress: Progress;
  current: string;
  onOpen(scenario: string): void;
  onForget(scenario: string): void;
}

export function ExerciseIndex({ exercises, progress, current, onOpen, onForget }: ExerciseIndexProps) {
  if (exercises.length === 0) return null;
  return (
    <nav className="exercise-index" aria-labelledby="exercise-index-title">
      <h3 id="exercise-index-title">All exercises</h3>
      <ul>
        {exercises.map((e) => {
          const p = progressOf(progress, e.scenario);
          const started = p.code !== undefined || p.hintsOpen > 0 || p.solved;
          const mark = p.solved ? 'solved' : started ? 'started' : 'not started';
          return (
            <li key={e.scenario} className={`exercise-index-item ${p.solved ? 'solved' : ''}`}>
              <span className="exercise-index-mark" aria-hidden="true">
                {p.solved ? '✓' : started ? '…' : '·'}
              </span>
              <button
                type="button"
                className="link-button"
                aria-current={e.scenario === current ? 'page' : undefined}
                aria-label={`${e.title}: ${mark}`}
                onClick={() => onOpen(e.scenario)}
              >
                {e.title}
              </button>
              <span className="exercise-index-state">{mark}</span>
              {started && (
                <ConfirmButton
                  className="small"
                  label={`Forget progress`}
                  question={`Forget your code, hints and solved mark for ${e.title}?`}
                  confirm="Forget"
                  onConfirm={() => onForget(e.scenario)}
                />
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

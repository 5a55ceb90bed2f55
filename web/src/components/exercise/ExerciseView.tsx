// "Fix it yourself": a scenario's broken variant in an editor, Run (the edited code as the
// variant `your-fix`, drawn by the page's own timeline and verdict), Check my fix (every
// declared set, as the server grades it), hints in order, the solution on request, and the
// learner's progress kept in this browser. Where edited code does not run (the server says
// why, or there is no server) the view says so and names the terminal command instead; the
// editor still works for reading. Its own chunk, with the editor: the page's bundle does not carry it.
import { EXERCISE_VARIANT_ID, type ExerciseInfo } from '@racelab/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { runCheck } from '../../app/exercises.js';
import { checking, IDLE, solved, type CheckState } from '../../model/exercise/checkResult.js';
import { exerciseCommand, exercisesRun, exerciseShown, whyNotHere } from '../../model/exercise/onServer.js';
import { browserStorage, progressOf, readProgress, resetProgress, updateProgress, type Progress } from '../../model/exercise/progress.js';
import { useStore } from '../../store/index.js';
import { selectRunInProgress, selectScenario } from '../../store/selectors.js';
import { CheckResults } from './CheckResults.js';
import { CodeEditor } from './CodeEditor.js';
import { ConfirmButton } from './ConfirmButton.js';
import { ExerciseHints, ExerciseSolutionPart } from './ExerciseHints.js';
import { ExerciseIndex } from './ExerciseIndex.js';

const NO_LINES: number[] = [];

function NotHere({ why, scenario }: { why: string; scenario: string }) {
  return (
    <div className="exercise-not-here" role="note" aria-label="Edited code does not run here">
      <p>{why}</p>
      <p>
        Grade your fix from a terminal, in a clone of racelab: <code className="exercise-command">{exerciseCommand(scenario)}</code>
      </p>
    </div>
  );
}

/** The learner's progress, read once and written on every change. */
function useProgress(): [
  Progress,
  (scenario: string, change: Parameters<typeof updateProgress>[2], start?: string) => void,
  (scenario: string) => void,
] {
  const [progress, setProgress] = useState<Progress>(() => readProgress(browserStorage()));
  const update = useCallback(
    (scenario: string, change: Parameters<typeof updateProgress>[2], start?: string) =>
      setProgress(updateProgress(browserStorage(), scenario, change, start)),
    [],
  );
  const forget = useCallback((scenario: string) => setProgress(resetProgress(browserStorage(), scenario)), []);
  return [progress, update, forget];
}

function Exercise({ info }: { info: ExerciseInfo }) {
  const exercises = useStore((s) => s.exercises);
  const runs = exercisesRun(exercises);
  const why = whyNotHere(exercises);
  const connected = useStore((s) => s.transport !== null);
  const busy = useStore(selectRunInProgress);
  const runError = useStore((s) => s.runError);
  const openExercise = useStore((s) => s.openExercise);
  const [progress, update, forget] = useProgress();
  const mine = progressOf(progress, info.scenario);
  const [code, setCode] = useState(mine.code ?? info.start.code);
  const [check, setCheck] = useState<CheckState>(IDLE);
  const [goTo, setGoTo] = useState<{ line: number } | null>(null);
  const stop = useRef<AbortController | null>(null);
  useEffect(() => () => stop.current?.abort(), []);

  const edit = useCallback(
    (next: string) => {
      setCode(next);
      update(info.scenario, { code: next }, info.start.code);
    },
    [info, update],
  );
  const errorLines = useMemo(
    () => (check.phase === 'not-compiled' ? check.errors.flatMap((e) => (e.line === undefined ? [] : [e.line])) : NO_LINES),
    [check],
  );
  const checkFix = async () => {
    stop.current?.abort();
    stop.current = new AbortController();
    const last = await runCheck(info, code, setCheck, stop.current.signal);
    if (solved(last)) update(info.scenario, { solved: true }, info.start.code);
  };
  const forgetOne = (scenario: string) => {
    forget(scenario);
    if (scenario !== info.scenario) return;
    setCode(info.start.code);
    setCheck(IDLE);
  };
  const list = exercises.state === 'answered' ? exercises.list : [];
  const editorHelp = `exercise-editor-help-${info.scenario}`;
  return (
    <section className="exercise" aria-labelledby="exercise-title">
      <div className="exercise-head">
        <h2 id="exercise-title">
          Fix it yourself: {info.title}
          {mine.solved && <span className="exercise-solved-mark"> ✓ solved</span>}
        </h2>
        <button type="button" onClick={() => openExercise(null)}>
          Back to the scenario
        </button>
      </div>
      <p className="exercise-intro">
        This is <strong>{info.start.title}</strong> (<code>{info.start.variant}</code>), a broken variant. Change it until the race cannot
        happen.{' '}
        {runs ? (
          <>
            <em>Run my code</em> draws its run below as <code>{EXERCISE_VARIANT_ID}</code>; <em>Check my fix</em> grades it at the
            scenario’s defaults and every declared set. A fix counts when every set passes.
          </>
        ) : (
          <>Where edited code runs, it is graded at the scenario’s defaults and every declared set; a fix counts when every set passes.</>
        )}
      </p>
      {why && <NotHere why={why} scenario={info.scenario} />}
      <div className="exercise-body">
        <div className="exercise-main">
          <p className="exercise-note" id={editorHelp}>
            Tab indents in the editor. To leave it with the keyboard, press Escape, then Tab (or Shift+Tab).
          </p>
          <CodeEditor
            value={code}
            onChange={edit}
            label={`Your fix: the code of ${info.start.variant}`}
            describedBy={editorHelp}
            errorLines={errorLines}
            goTo={goTo}
          />
          <div className="exercise-actions" role="group" aria-label="Your fix">
            {runs && (
              <>
                <button
                  type="button"
                  className="run"
                  disabled={!connected || busy}
                  title="Run your code once, with the parameters and faults set in the controls"
                  onClick={() => {
                    // The run is drawn under the exercise: bring its timeline into sight.
                    if (useStore.getState().startExerciseRun(code)) document.querySelector('.timeline')?.scrollIntoView({ block: 'start' });
                  }}
                >
                  Run my code
                </button>
                <button type="button" className="run" disabled={checking(check)} onClick={() => void checkFix()}>
                  {checking(check) ? 'Checking…' : 'Check my fix'}
                </button>
              </>
            )}
            <ConfirmButton
              label="Reset"
              question="Discard your edits and start again from the broken code?"
              confirm="Reset to the start"
              disabled={code === info.start.code}
              onConfirm={() => {
                edit(info.start.code);
                setCheck(IDLE);
              }}
            />
          </div>
          {runs && runError && (
            <p className="error" role="alert">
              The run did not start: {runError}
            </p>
          )}
        </div>
        <div className="exercise-side">
          <CheckResults check={check} onGoTo={(line) => setGoTo({ line })} />
          <ExerciseHints hints={info.hints} open={mine.hintsOpen} onOpen={(hintsOpen) => update(info.scenario, { hintsOpen })} />
          {exercises.state === 'answered' && <ExerciseSolutionPart scenario={info.scenario} onUse={edit} />}
          <ExerciseIndex exercises={list} progress={progress} current={info.scenario} onOpen={openExercise} onForget={forgetOne} />
        </div>
      </div>
    </section>
  );
}

export default function ExerciseView() {
  const scenario = useStore(selectScenario);
  const exercises = useStore((s) => s.exercises);
  const openExercise = useStore((s) => s.openExercise);
  const info = useMemo(() => exerciseShown(exercises, scenario), [exercises, scenario]);
  if (exercises.state === 'asking') return <p className="exercise-note">Asking the server for its exercises…</p>;
  if (!info)
    return (
      <section className="exercise" aria-label="Fix it yourself">
        <p>{scenario ? `${scenario.title} has no exercise.` : 'No scenario is selected.'}</p>
        <button type="button" onClick={() => openExercise(null)}>
          Back to the scenario
        </button>
      </section>
    );
  // A new exercise starts from its own code and progress.
  return <Exercise key={info.scenario} info={info} />;
}

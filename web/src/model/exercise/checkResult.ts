// What a check of an exercise shows while it streams: each declared set pending, running,
// passed or failed (in the verdict's words, with the set's reason and the near-miss it
// behaves as), or the code's compile errors with their lines, or the server's refusal as it
// is. A fold over the answer's lines: the same lines give the same picture.
import type { ExerciseCompileError, ExerciseProgress, ExerciseSet, ExerciseSetResult } from '@racelab/shared';

export type SetState = 'pending' | 'running' | 'passed' | 'failed';

export interface SetRow {
  index: number;
  /** The set as the exercise declares it; the result's own once graded. */
  set: ExerciseSet | null;
  state: SetState;
  result: ExerciseSetResult | null;
}

/** idle: never checked; sending: asked, no answer yet; checking: compiled, sets being graded. */
export type CheckPhase = 'idle' | 'sending' | 'checking' | 'done' | 'not-compiled' | 'refused' | 'failed';

export interface CheckState {
  phase: CheckPhase;
  rows: SetRow[];
  /** The compiler's (or loader's) messages, when the code did not compile. */
  errors: ExerciseCompileError[];
  /** The server's refusal, or why the check could not be read, in words. */
  problem: string | null;
  /** Every set passed (only once the check is done). */
  passed: boolean;
}

export const IDLE: CheckState = { phase: 'idle', rows: [], errors: [], problem: null, passed: false };

/** A check just sent: every declared set pending. */
export function checkSent(sets: readonly ExerciseSet[]): CheckState {
  return { ...IDLE, phase: 'sending', rows: sets.map((set, index) => ({ index, set, state: 'pending', result: null })) };
}

/** The lowest set not graded yet is the one running (the server grades them in order). */
function withRunning(rows: SetRow[]): SetRow[] {
  const first = rows.findIndex((r) => r.state === 'pending' || r.state === 'running');
  return rows.map((r, i) => (r.state === 'pending' || r.state === 'running' ? { ...r, state: i === first ? 'running' : 'pending' } : r));
}

const graded = (result: ExerciseSetResult): SetRow => ({
  index: result.index,
  set: result.set,
  state: result.passed ? 'passed' : 'failed',
  result,
});
const blank = (index: number): SetRow => ({ index, set: null, state: 'pending', result: null });

/** The picture after one more line of the answer. */
export function foldProgress(state: CheckState, progress: ExerciseProgress): CheckState {
  switch (progress.kind) {
    case 'compiled': {
      // The server's count of sets wins: a row for each, the declared set where there is one.
      const rows = Array.from({ length: progress.sets }, (_, index): SetRow => state.rows[index] ?? blank(index));
      return { ...state, phase: 'checking', rows: withRunning(rows) };
    }
    case 'not-compiled': {
      // The compiler may say the same thing twice about one line (two columns): said once.
      const errors = progress.errors.filter((e, i, all) => all.findIndex((x) => x.message === e.message && x.line === e.line) === i);
      return { ...state, phase: 'not-compiled', errors, rows: [] };
    }
    case 'set': {
      const rows: (SetRow | undefined)[] = [...state.rows];
      rows[progress.result.index] = graded(progress.result);
      return { ...state, rows: withRunning(Array.from(rows, (r, index) => r ?? blank(index))) };
    }
    case 'done': {
      const rows: (SetRow | undefined)[] = [...state.rows];
      for (const result of progress.results) rows[result.index] = graded(result);
      const final = Array.from(rows, (r, index) => r ?? blank(index));
      const passed = progress.passed && final.length > 0 && final.every((r) => r.state === 'passed');
      return { ...state, phase: 'done', rows: final, passed };
    }
    case 'refused':
      return { ...state, phase: 'refused', problem: progress.error };
  }
}

/** The check ended without its answer (an unreadable line, a dropped connection): said in words. */
export function checkFailed(state: CheckState, problem: string): CheckState {
  return { ...state, phase: 'failed', problem };
}

/** The fix counts: the check is done and every set passed. */
export const solved = (state: CheckState): boolean => state.phase === 'done' && state.passed;

/** The check is still streaming. */
export const checking = (state: CheckState): boolean => state.phase === 'sending' || state.phase === 'checking';

/** A row's name in words: the set's label, else its number. */
export const setLabel = (row: SetRow): string => row.set?.label ?? `set ${row.index + 1}`;

/** "3 of 4 sets pass" — the check's headline once done. */
export function checkHeadline(state: CheckState): string {
  if (state.phase === 'not-compiled') return 'Your code does not compile';
  if (state.phase === 'refused') return 'The server refused the check';
  if (state.phase === 'failed') return 'The check did not finish';
  if (solved(state)) return 'Solved: every set passes';
  const passed = state.rows.filter((r) => r.state === 'passed').length;
  if (state.phase === 'done') return `Not yet: ${passed} of ${state.rows.length} sets pass`;
  if (checking(state))
    return state.phase === 'sending' ? 'Compiling your code…' : `Checking: ${passed} of ${state.rows.length} sets pass so far`;
  return '';
}

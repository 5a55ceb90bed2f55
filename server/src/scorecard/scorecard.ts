// The scorecard's first part: every lock against every fault that applies to it, each run as
// a variant of the fault's scenario (the lock's id is the variant's), on the matrix runner.
import type { Scorecard, ScorecardCell, StackCell } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import type { Playground } from '../runs/playground.js';
import type { ScorecardFault } from './faults.js';
import { runMatrix, type MatrixFault, type OnRecording } from './matrix.js';

export type { Scorecard, ScorecardCell } from '@racelab/shared';

/** A lock fault as a column of the matrix: it runs the lock's variant of its scenario, where it applies. */
function lockColumn(fault: ScorecardFault): MatrixFault<LockModule> {
  return {
    id: fault.id,
    planFor(lock) {
      const reason = fault.doesNotApply(lock);
      if (reason !== null) return { verdict: 'does not apply', note: reason };
      return { scenario: fault.scenario, variant: lock.id, params: fault.params, faults: fault.faults };
    },
    classify: (run, lock) => fault.classify(run.metrics, lock, run.recording.events),
  };
}

const lockCell = ({ fault, row, ...reading }: StackCell): ScorecardCell => ({ fault, lock: row, ...reading });

/** Runs the locks' matrix; `onRecording` gets each run's recording once, under its file name. */
export async function runScorecard(
  playground: Playground,
  locks: LockModule[],
  faults: ScorecardFault[],
  onRecording: OnRecording,
  onCell: (cell: ScorecardCell) => void = () => undefined,
): Promise<Scorecard> {
  const cells = await runMatrix(playground, locks, faults.map(lockColumn), onRecording, (cell) => onCell(lockCell(cell)));
  return {
    locks: locks.map((l) => ({ id: l.id, name: l.name, version: l.version, renews: l.renews, fences: l.fences, spansNodes: l.spansNodes })),
    faults: faults.map((f) => ({ id: f.id, title: f.title, mapping: f.mapping })),
    cells: cells.map(lockCell),
  };
}

/** Did every applicable cell come out correct? What `racelab check` exits on. */
export function allHandled(scorecard: Scorecard): boolean {
  return scorecard.cells.every(cellHandled);
}

/** A cell that is correct, does not apply, or gives what every lock of its kind gives. */
export function cellHandled(cell: ScorecardCell): boolean {
  return cell.verdict === 'correct' || cell.verdict === 'does not apply' || cell.byDesign === true;
}

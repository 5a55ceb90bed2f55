// Runs every lock against every fault that applies to it and reads each cell's verdict
// from the run's metrics: what the stores counted, never what a worker said. Faults that
// share a run (the same scenario, parameters and plan) share one run per lock.
import { createRecording, type Metrics, type Recording, type ScenarioManifest, type Scorecard, type ScorecardCell } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import type { Playground } from '../runs/playground.js';
import type { ScorecardFault } from './faults.js';

export type { Scorecard, ScorecardCell } from '@racelab/shared';

export interface CellRun {
  metrics: Metrics;
  recording: Recording;
}

/** One run of a lock's variant under a fault's plan; throws when the run does not finish. */
export async function runCell(playground: Playground, fault: ScorecardFault, lock: LockModule): Promise<CellRun> {
  const prepared = playground.prepare({ scenario: fault.scenario, variant: lock.id, params: fault.params, faults: fault.faults });
  if (!prepared.ok) throw new Error(`${fault.id} × ${lock.id}: ${prepared.error}`);
  const outcome = await prepared.run.start();
  if (outcome.status !== 'finished') throw new Error(`${fault.id} × ${lock.id}: the run did not finish: ${outcome.message}`);
  const manifest = playground.catalog.manifests.find((m) => m.id === fault.scenario)!;
  return { metrics: outcome.metrics, recording: createRecording(onlyVariant(manifest, lock.id), lock.id, prepared.run.events, new Date()) };
}

/** The manifest with just the variant that ran: a recording carries only the code it shows. */
function onlyVariant(manifest: ScenarioManifest, variant: string): ScenarioManifest {
  return { ...manifest, variants: manifest.variants.filter((v) => v.id === variant) };
}

/** The recording file of a cell's run. */
export const recordingName = (runKey: string, lock: LockModule): string => `${runKey}-${lock.id}.json`;

/** Runs the matrix; `onRecording` gets each run's recording once, under its file name. */
export async function runScorecard(
  playground: Playground,
  locks: LockModule[],
  faults: ScorecardFault[],
  onRecording: (file: string, recording: Recording) => void,
  onCell: (cell: ScorecardCell) => void = () => undefined,
): Promise<Scorecard> {
  const cells: ScorecardCell[] = [];
  for (const lock of locks) {
    const runs = new Map<string, { file: string; run: CellRun }>(); // by the run's key: faults that share a run share it
    for (const fault of faults) {
      const reason = fault.doesNotApply(lock);
      if (reason !== null) {
        cells.push({ fault: fault.id, lock: lock.id, verdict: 'does not apply', note: reason });
        onCell(cells.at(-1)!);
        continue;
      }
      const runKey = runKeyOf(fault, faults);
      let done = runs.get(runKey);
      if (!done) {
        done = { file: recordingName(runKey, lock), run: await runCell(playground, fault, lock) };
        onRecording(done.file, done.run.recording);
        runs.set(runKey, done);
      }
      cells.push({
        fault: fault.id,
        lock: lock.id,
        ...fault.classify(done.run.metrics, lock),
        seenAt: { scenario: fault.scenario, variant: lock.id, params: fault.params, faults: fault.faults },
        metrics: done.run.metrics,
        recording: done.file,
      });
      onCell(cells.at(-1)!);
    }
  }
  return {
    locks: locks.map((l) => ({ id: l.id, name: l.name, version: l.version, renews: l.renews, fences: l.fences, spansNodes: l.spansNodes })),
    faults: faults.map((f) => ({ id: f.id, title: f.title, mapping: f.mapping })),
    cells,
  };
}

/** The id of the first fault with the same run as `fault`: the run's key. */
function runKeyOf(fault: ScorecardFault, faults: ScorecardFault[]): string {
  const same = (a: ScorecardFault) =>
    a.scenario === fault.scenario &&
    JSON.stringify(a.params) === JSON.stringify(fault.params) &&
    JSON.stringify(a.faults) === JSON.stringify(fault.faults);
  return faults.find(same)!.id;
}

/** Did every applicable cell come out correct? What `racelab check` exits on. */
export function allHandled(scorecard: Scorecard): boolean {
  return scorecard.cells.every(cellHandled);
}

/** A cell that is correct, does not apply, or gives what every lock of its kind gives. */
export function cellHandled(cell: ScorecardCell): boolean {
  return cell.verdict === 'correct' || cell.verdict === 'does not apply' || cell.byDesign === true;
}

// The scorecard's runner, for either part: rows (a lock library, or a library as a scenario's
// variant uses it) against faults (columns). Each cell is one real run of a variant at a
// parameter set and fault plan, its verdict read from the run's metrics: what the stores
// counted, never what a worker said. Faults whose run on a row is the same share one run.
import {
  createRecording,
  unavailableHere,
  type CellPlan,
  type CellVerdict,
  type ExpectationResult,
  type ExpectedVerdict,
  type Metrics,
  type Recording,
  type ScenarioManifest,
  type StackCell,
} from '@racelab/shared';
import type { Playground } from '../runs/playground.js';

export interface CellRun {
  metrics: Metrics;
  /** The scenario's invariants, checked by the server against the metrics. */
  results: ExpectationResult[];
  /** The verdict the variant's kind gives at these parameters, and why not where it differs. */
  expected: ExpectedVerdict;
  manifest: ScenarioManifest;
  recording: Recording;
}

export interface Classified {
  verdict: CellVerdict;
  /** One line: what the stores showed, with the numbers. */
  note: string;
  /** What every lock of this kind gives under this fault (no lease survives its holder's stall): not held against it. */
  byDesign?: boolean;
}

/** Gets each run's recording once, under its file name. */
export type OnRecording = (file: string, recording: Recording) => void;

/** A cell with no run: the fault cannot apply to the row, or the scenario cannot stage it yet (the note says which and why). */
export interface Unrun {
  verdict: 'does not apply' | 'not staged';
  note: string;
}

/** A column as the runner sees it. */
export interface MatrixFault<Row> {
  id: string;
  /** The run that stands for this fault on `row`, or the cell it gives without one. */
  planFor(row: Row): CellPlan | Unrun;
  classify(run: CellRun, row: Row): Classified;
}

const unrun = (plan: CellPlan | Unrun): plan is Unrun => 'verdict' in plan;

/** One run of a variant at a plan; throws when the run is refused or does not finish. */
export async function runCell(playground: Playground, plan: CellPlan): Promise<CellRun> {
  const where = `${plan.scenario}/${plan.variant}`;
  const prepared = playground.prepare(plan);
  if (!prepared.ok) throw new Error(`${where}: ${prepared.error}`);
  const outcome = await prepared.run.start();
  if (outcome.status !== 'finished') throw new Error(`${where}: the run did not finish: ${outcome.message}`);
  const manifest = playground.catalog.manifests.find((m) => m.id === plan.scenario)!;
  return {
    metrics: outcome.metrics,
    results: outcome.results,
    expected: outcome.expected,
    manifest,
    recording: createRecording(onlyVariant(manifest, plan.variant), plan.variant, prepared.run.events, new Date()),
  };
}

/** The manifest with just the variant that ran: a recording carries only the code it shows. */
function onlyVariant(manifest: ScenarioManifest, variant: string): ScenarioManifest {
  return { ...manifest, variants: manifest.variants.filter((v) => v.id === variant) };
}

/** The recording file of a cell's run: the first fault with that run, then the row. */
export const recordingName = (runKey: string, row: { id: string }): string => `${runKey}-${row.id}.json`;

/**
 * Runs every row against every fault, row by row; `onRecording` gets each run's recording
 * once, under its file name. A row whose scenario this machine cannot run gets no run: each
 * of its cells is "not staged", with what to install.
 */
export async function runMatrix<Row extends { id: string }>(
  playground: Playground,
  rows: Row[],
  faults: MatrixFault<Row>[],
  onRecording: OnRecording,
  onCell: (cell: StackCell) => void,
): Promise<StackCell[]> {
  const cells: StackCell[] = [];
  const add = (cell: StackCell) => {
    cells.push(cell);
    onCell(cell);
  };
  for (const row of rows) {
    const runs = new Map<string, { file: string; run: CellRun }>(); // by the run's key: faults that share a run share it
    for (const fault of faults) {
      const plan = missingHere(playground, fault.planFor(row));
      if (unrun(plan)) {
        add({ fault: fault.id, row: row.id, verdict: plan.verdict, note: plan.note });
        continue;
      }
      const runKey = runKeyOf(plan, row, faults);
      let done = runs.get(runKey);
      if (!done) {
        done = { file: recordingName(runKey, row), run: await runCell(playground, plan) };
        onRecording(done.file, done.run.recording);
        runs.set(runKey, done);
      }
      add({
        fault: fault.id,
        row: row.id,
        ...fault.classify(done.run, row),
        seenAt: plan,
        metrics: done.run.metrics,
        recording: done.file,
      });
    }
  }
  return cells;
}

/** The plan, or "not staged" with the reason when this machine cannot run its scenario or variant. */
function missingHere(playground: Playground, plan: CellPlan | Unrun): CellPlan | Unrun {
  if (unrun(plan)) return plan;
  const manifest = playground.catalog.manifests.find((m) => m.id === plan.scenario);
  if (!manifest) throw new Error(`the scorecard names an unknown scenario, '${plan.scenario}'`);
  const reason = unavailableHere(manifest, plan.variant);
  return reason === null ? plan : { verdict: 'not staged', note: reason };
}

/** The id of the first fault whose run on `row` is `plan`: the run's key. */
function runKeyOf<Row>(plan: CellPlan, row: Row, faults: MatrixFault<Row>[]): string {
  const same = JSON.stringify(plan);
  return faults.find((f) => JSON.stringify(f.planFor(row)) === same)!.id;
}

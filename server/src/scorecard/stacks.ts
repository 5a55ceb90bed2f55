// The scorecard's second part: the job queues, schedulers and poolers. Not locks: each runs in
// a scenario of its own, and each of that scenario's variants (a broken or a correct way to use
// the library) is a row. A cell's verdict is the scenario's own invariant, checked by the server
// against the metrics the stores gave.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { metricText, verdictLine, type ScenarioManifest, type StackCell, type StackRow, type StackScorecard } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { pgbouncerVersion } from '../services/pgbouncer.js';
import { runMatrix, type CellRun, type Classified, type MatrixFault, type OnRecording } from './matrix.js';
import type { StackFault } from './stackFaults.js';

/** A library of the second part and the scenario it runs in. */
export interface StackLibrary {
  scenario: string;
  library: string;
  /** Its pinned version (server/package.json); a program's, as installed here. */
  version(): string;
}

/** The version server/package.json pins a dependency at. */
export function pinnedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const version = manifest.dependencies[name];
  if (!version) throw new Error(`server/package.json pins no '${name}'`);
  return version;
}

/** The libraries, in the part's row order: the job queue, the scheduler, the PostgreSQL queue, the pooler. */
export const STACK_LIBRARIES: StackLibrary[] = [
  { scenario: 'stalled-job', library: 'bullmq', version: () => pinnedVersion('bullmq') },
  { scenario: 'cron-every-replica', library: 'croner', version: () => pinnedVersion('croner') },
  { scenario: 'expired-job', library: 'pg-boss', version: () => pinnedVersion('pg-boss') },
  { scenario: 'pooled-advisory-lock', library: 'PgBouncer', version: () => pgbouncerVersion() ?? 'not installed' },
];

/** Every variant of each library's scenario, as a row. */
export function stackRows(libraries: StackLibrary[], manifests: ScenarioManifest[]): StackRow[] {
  return libraries.flatMap(({ scenario, library, version }) => {
    const manifest = manifests.find((m) => m.id === scenario);
    if (!manifest) throw new Error(`the scorecard's ${library} row names an unknown scenario, '${scenario}'`);
    return manifest.variants.map((v) => ({
      id: `${scenario}-${v.id}`,
      library,
      version: version(),
      scenario,
      variant: v.id,
      usage: v.title,
      correct: v.correct,
    }));
  });
}

/**
 * A run read through its scenario's invariants: all held is correct; one broken by too many
 * (charges, reports, holders) is duplicate work; by too few, the work was stuck. The note
 * gives the figures, and why the variant was expected to give this where its kind does not.
 */
export function classifyStack(run: CellRun): Classified {
  const words = (name: string) => run.manifest.metrics.find((m) => m.name === name);
  const broken = run.results.filter((r) => !r.held);
  const figures = Object.entries(run.metrics)
    .filter(([name]) => !broken.some((r) => r.metric === name))
    .map(([name, value]) => metricText(words(name), name, value));
  const because = run.expected.reason ? `; expected at these parameters: ${run.expected.reason}` : '';
  if (broken.length === 0)
    return { verdict: 'correct', note: `${run.results.map((r) => r.text).join('; ')}: ${figures.join(', ')}${because}` };
  const over = broken.some((r) => typeof r.actual === 'number' && typeof r.value === 'number' && r.actual > r.value);
  const lines = broken.map((r) => `${verdictLine(r, words(r.metric))} (${r.text})`);
  return { verdict: over ? 'duplicate work' : 'stuck lock', note: `${[...lines, ...figures].join('; ')}${because}` };
}

/** A fault of the second part as a column of the matrix: the plan its scenario gives it, with the row's variant. */
function stackColumn(fault: StackFault): MatrixFault<StackRow> {
  return {
    id: fault.id,
    planFor(row) {
      const plan = fault.plans[row.scenario];
      if (!plan) throw new Error(`the fault ${fault.id} says nothing of ${row.scenario}`);
      return 'verdict' in plan ? plan : { scenario: row.scenario, variant: row.variant, ...plan };
    },
    classify: classifyStack,
  };
}

/** Runs the second part: its rows against its faults, each cell told to `onCell` as it comes. */
export async function runStacks(
  playground: Playground,
  { rows, faults }: { rows: StackRow[]; faults: StackFault[] },
  onRecording: OnRecording,
  onCell: (cell: StackCell) => void = () => undefined,
): Promise<StackScorecard> {
  const cells = await runMatrix(playground, rows, faults.map(stackColumn), onRecording, onCell);
  return { rows, faults: faults.map((f) => ({ id: f.id, title: f.title, mapping: f.mapping })), cells };
}

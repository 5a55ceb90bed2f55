// `racelab explore --all [--budget N] [--minutes M] [--bound K] [--scenario id ...]` (npm run
// explore -- --all): explores every variant and near-miss of the catalogue (or of the scenarios
// named) from its defaults, one after another, and prints a table as each ends: scenario,
// variant, kind, schedules to the first failure (or run), time, result (found: the smallest
// failing schedule's cost and verdict line / none within the bound or the budget / assumption
// broken: … / not explorable: …) and whether that is what the kind expects. Exit 0 when every
// row is as expected, 1 when a broken variant or near-miss has no failure found, a correct one
// fails without a named assumption, or the stores could not be reached; 2 on bad input.
import { parseArgs } from 'node:util';
import { unknownScenario } from '@racelab/shared';
import { loadCatalog, type Catalog } from '../scenarios/registry.js';
import { onPlayground } from './searchCommand.js';
import { EXPLORE_PARALLEL } from './exploreCli.js';
import { mostWorkers, resultWords, type ExploreLimits, type ExploredRow } from './exploreCatalogue.js';

export const EXPLORE_ALL_USAGE = `usage: racelab explore --all [--budget N] [--minutes M] [--bound K] [--scenario id ...]   (npm run explore -- --all)
  --budget    schedules to run at most for each variant (default 100; a broken one stops at its first failure)
  --minutes   stop starting a variant's schedules after this long (default 2)
  --bound     the most preemptions plus faults a schedule may have (default 2)
  --scenario  only this scenario (give it again for more)`;

const OPTIONS = {
  budget: { type: 'string', default: '100' },
  minutes: { type: 'string', default: '2' },
  bound: { type: 'string', default: '2' },
  scenario: { type: 'string', multiple: true, default: [] as string[] },
} as const;

/** The --all command (argv without --all). Returns the exit code. */
export async function exploreAllCommand(argv: string[]): Promise<number> {
  const catalog = await loadCatalog();
  const parsed = readLimits(argv, catalog);
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n${EXPLORE_ALL_USAGE}`);
    return 2;
  }
  const { exploreScenario } = await import('./exploreCatalogue.js');
  const { limits, scenarios } = parsed;
  const started = Date.now();
  const rows: ExploredRow[] = [];
  console.log(TABLE_HEAD);
  const explored = await onPlayground(
    Math.max(...scenarios.map((id) => mostWorkers(catalog, id))) * EXPLORE_PARALLEL,
    async (playground) => {
      for (const id of scenarios) rows.push(...(await exploreScenario(playground, id, limits, (row) => console.log(tableRow(row)))));
      return 0;
    },
  );
  if (explored !== 0) return explored;
  const wrong = rows.filter((r) => r.asExpected === false);
  console.log(
    `\n${rows.length} variants and near-misses in ${((Date.now() - started) / 60_000).toFixed(1)} min (bound ${limits.bound}, budget ${limits.budget} schedules each): ${wrong.length === 0 ? 'each as its kind expects' : `${wrong.length} NOT as expected: ${wrong.map((r) => `${r.scenario} ${r.variant}`).join(', ')}`}`,
  );
  return wrong.length === 0 ? 0 : 1;
}

function readLimits(argv: string[], catalog: Catalog): { limits: ExploreLimits; scenarios: string[] } | string {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true }));
  } catch (error) {
    return (error as Error).message;
  }
  const numbers = { bound: [0, 6], budget: [1, 10_000], minutes: [1, 24 * 60] } as const;
  for (const [name, [min, max]] of Object.entries(numbers)) {
    const n = Number(values[name as keyof typeof numbers]);
    if (!Number.isInteger(n) || n < min || n > max) return `--${name} must be an integer from ${min} to ${max}`;
  }
  const stranger = values.scenario.find((id) => !catalog.scenarios.has(id));
  if (stranger !== undefined) return unknownScenario(stranger, catalog.manifests);
  const limits = {
    bound: Number(values.bound),
    budget: Number(values.budget),
    timeMs: Number(values.minutes) * 60_000,
    parallel: EXPLORE_PARALLEL,
  };
  const scenarios = values.scenario.length > 0 ? values.scenario : catalog.manifests.map((m) => m.id);
  return { limits, scenarios };
}

const TABLE_HEAD = `| Scenario | Variant | Kind | Schedules | Time | Result | As expected |\n| --- | --- | --- | --- | --- | --- | --- |`;

/** One row of the table, in Markdown (a | in a verdict would split its cell). */
function tableRow(row: ExploredRow): string {
  const judged = row.asExpected === null ? '—' : row.asExpected ? 'yes' : 'NO';
  const time = row.ms === 0 ? '—' : `${(row.ms / 1000).toFixed(0)} s`;
  const schedules = row.ms === 0 ? '—' : String(row.schedules);
  const cells = [row.scenario, row.variant, row.kind, schedules, time, resultWords(row).replaceAll('|', '\\|'), judged];
  return `| ${cells.join(' | ')} |`;
}

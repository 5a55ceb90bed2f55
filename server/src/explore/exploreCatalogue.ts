// The explorer held to the catalogue: every variant and near-miss of a scenario explored from
// its defaults (no declared set given), one after another, each judged against what its kind
// expects. A broken variant or a near-miss should have a failing schedule found; a correct one
// none within the bound, or only failing schedules that break an assumption its verdict rests
// on (assumptions.ts). A scenario or variant that cannot be explored says why.
import { resolveParams, unavailableHere, type ScenarioManifest } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { AnyScenario, Catalog } from '../scenarios/registry.js';
import { variantForSetup, type MutantDefinition, type VariantDefinition } from '../scenarios/types.js';
import { notExplorable } from './assumptions.js';
import { paramCorners } from './corners.js';
import { explore, failsTheVariant, type Exploration, type ExploreRequest } from './explorer.js';

export type ExploredKind = 'broken' | 'correct' | 'near-miss';

/** What exploring one variant gave. */
export type ExploredResult =
  | { kind: 'found'; preemptions: number; faults: number; decisions: number; verdict: string; corner?: string }
  | { kind: 'none'; exhausted: boolean; bound: number; errors: number }
  | { kind: 'assumption'; words: string[] }
  | { kind: 'not-explorable'; why: string }
  | { kind: 'unavailable'; why: string }
  | { kind: 'error'; message: string };

export interface ExploredRow {
  scenario: string;
  variant: string;
  kind: ExploredKind;
  /** Schedules played until the first failure of the variant, or all those played when none failed. */
  schedules: number;
  ms: number;
  result: ExploredResult;
  /**
   * The result is what the kind expects; null when it was not judged: not explorable, unavailable
   * here, or a near-miss with nothing found from the defaults whose mistake is declared to show
   * at another parameter set (a stock that cannot run out at the defaults: no schedule changes it).
   */
  asExpected: boolean | null;
  /** Why a near-miss with nothing found was not judged: the set where its mistake is declared to show. */
  declaredAt?: string;
}

/** How far each variant is explored: the limits of one exploration, and a budget of their own for correct variants (they run it whole). */
export type ExploreLimits = Pick<ExploreRequest, 'bound' | 'budget' | 'timeMs' | 'parallel'> & { correctBudget?: number };

type AnyVariant = VariantDefinition<unknown> | MutantDefinition<unknown>;

/** A scenario's variants then its near-misses, as the catalogue lists them. */
export function variantsOf(scenario: AnyScenario): Array<{ definition: AnyVariant; kind: ExploredKind }> {
  return [
    ...scenario.variants.map((definition) => ({ definition, kind: definition.correct ? ('correct' as const) : ('broken' as const) })),
    ...(scenario.mutants ?? []).map((definition) => ({ definition, kind: 'near-miss' as const })),
  ];
}

/** The most workers a run of the scenario's variants and near-misses has at their defaults: the warm processes one schedule may need. */
export function mostWorkers(catalog: Catalog, scenarioId: string): number {
  const scenario = catalog.scenarios.get(scenarioId)!;
  const manifest = catalog.manifests.find((m) => m.id === scenarioId)!;
  const counts = variantsOf(scenario).map(({ definition, kind }) => {
    const params = paramsOf(manifest, definition, kind);
    return params.ok ? scenario.workers(params.params).length : 1;
  });
  return Math.max(1, ...counts);
}

/** The parameters a variant is explored at: its defaults over the scenario's (a near-miss's own defaults too). */
const paramsOf = (manifest: ScenarioManifest, definition: AnyVariant, kind: ExploredKind) =>
  resolveParams(manifest, definition.id, kind === 'near-miss' ? { ...definition.defaults } : {});

/** Explores every variant and near-miss of one scenario (or those `only` names) from its defaults, one after another; `onRow` hears of each as it ends. */
export async function exploreScenario(
  playground: Playground,
  scenarioId: string,
  limits: ExploreLimits,
  onRow?: (row: ExploredRow) => void,
  only?: string[],
): Promise<ExploredRow[]> {
  const scenario = playground.catalog.scenarios.get(scenarioId);
  const manifest = playground.catalog.manifests.find((m) => m.id === scenarioId);
  if (!scenario || !manifest) throw new Error(`unknown scenario '${scenarioId}'`);
  const rows: ExploredRow[] = [];
  for (const { definition, kind } of variantsOf(scenario)) {
    if (only && !only.includes(definition.id)) continue;
    const row = await exploreVariant(playground, { scenario, manifest, definition, kind }, limits);
    rows.push(row);
    onRow?.(row);
  }
  return rows;
}

interface Target {
  scenario: AnyScenario;
  manifest: ScenarioManifest;
  definition: AnyVariant;
  kind: ExploredKind;
}

async function exploreVariant(playground: Playground, target: Target, limits: ExploreLimits): Promise<ExploredRow> {
  const { scenario, manifest, definition, kind } = target;
  const unjudged = (result: ExploredResult): ExploredRow => ({ ...base, schedules: 0, ms: 0, result, asExpected: null });
  const base = { scenario: scenario.id, variant: definition.id, kind };
  const why = notExplorable(scenario, definition);
  if (why !== undefined) return unjudged({ kind: 'not-explorable', why });
  const unavailable = unavailableHere(manifest, variantForSetup(definition));
  if (unavailable) return unjudged({ kind: 'unavailable', why: unavailable });
  const mutant = kind === 'near-miss';
  const params = paramsOf(manifest, definition, kind);
  if (!params.ok) return { ...base, schedules: 0, ms: 0, result: { kind: 'error', message: params.error }, asExpected: false };
  const started = Date.now();
  try {
    const found = await explore(
      playground,
      {
        scenario: scenario.id,
        variant: definition.id,
        params: params.params,
        corners: paramCorners(manifest.params, params.params),
        mutants: mutant,
        faults: { expire: true, kill: true },
        firstFailure: true,
        bound: limits.bound,
        budget: kind === 'correct' ? (limits.correctBudget ?? limits.budget) : limits.budget,
        timeMs: limits.timeMs,
        parallel: limits.parallel,
      },
      manifest.metrics,
    );
    const result = resultOf(found, limits.bound);
    const row = { ...base, schedules: schedulesToFailure(found), ms: Date.now() - started, result };
    const declaredAt = 'failsAt' in definition ? setWords(definition.failsAt) : '';
    // Nothing of its own found: none failed, or each that did failed the correct variant too.
    const nothingOwn = result.kind === 'none' || result.kind === 'assumption';
    if (mutant && nothingOwn && declaredAt !== '') return { ...row, asExpected: null, declaredAt };
    return { ...row, asExpected: expected(kind, result) };
  } catch (error) {
    return {
      ...base,
      schedules: 0,
      ms: Date.now() - started,
      result: { kind: 'error', message: (error as Error).message },
      asExpected: false,
    };
  }
}

function resultOf(found: Exploration, bound: number): ExploredResult {
  const { smallest, assumptionsBroken, exhausted, played } = found;
  if (smallest) {
    const { cost, choices, lines, corner } = smallest;
    return { kind: 'found', ...cost, decisions: choices.length, verdict: lines[0] ?? '', ...(corner ? { corner: corner.words } : {}) };
  }
  if (assumptionsBroken.length > 0) return { kind: 'assumption', words: [...new Set(assumptionsBroken.map((p) => p.assumption!))] };
  const errors = played.filter((p) => p.outcome === 'error');
  // Runs that all ended in an error say nothing of the variant's schedules.
  if (errors.length === played.length)
    return { kind: 'error', message: `every schedule ended with an error, e.g. ${errors[0]?.lines[0] ?? 'none played'}` };
  return { kind: 'none', exhausted, bound, errors: errors.length };
}

/** The schedules played up to and with the first failure of the variant (in the order they ended), else all. */
function schedulesToFailure({ played }: Exploration): number {
  const first = played.findIndex(failsTheVariant);
  return first < 0 ? played.length : first + 1;
}

function expected(kind: ExploredKind, result: ExploredResult): boolean {
  if (result.kind === 'error') return false;
  return kind === 'correct' ? result.kind !== 'found' : result.kind === 'found';
}

/** A declared parameter set in words ("initialStock=5, sales=4,3"); empty for the defaults. */
const setWords = (set: Record<string, unknown>): string =>
  Object.entries(set)
    .map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(', ');

/** A row's result in the table's words. */
export function resultWords(row: ExploredRow): string {
  const words = outcomeWords(row);
  return row.declaredAt ? `${words}; its mistake is declared to show at ${row.declaredAt}, not at the defaults` : words;
}

function outcomeWords({ result, schedules, kind }: ExploredRow): string {
  switch (result.kind) {
    case 'found':
      return `found: ${result.preemptions}p ${result.faults}f${result.corner ? `, ${result.corner}` : ''}, ${result.decisions} decisions: ${result.verdict}`;
    case 'none': {
      const errors = result.errors > 0 ? `; ${result.errors} ended with an error` : '';
      return result.exhausted
        ? `none: every schedule within bound ${result.bound} run${errors}`
        : `none in ${schedules} schedule${schedules === 1 ? '' : 's'} (bound ${result.bound}${errors})`;
    }
    case 'assumption':
      // A near-miss's failures kept apart are those its correct variant fails too.
      return `${kind === 'near-miss' ? 'none of its own' : 'assumption broken'}: ${result.words.join('; ')}`;
    case 'not-explorable':
      return `not explorable: ${result.why}`;
    case 'unavailable':
      return result.why;
    case 'error':
      return `error: ${result.message}`;
  }
}

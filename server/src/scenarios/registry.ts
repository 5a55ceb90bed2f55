// Finds every scenario folder under scenarios/ (each has an index module exporting its
// definition as default) and builds the manifests the page renders. Adding a scenario
// touches its folder only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, delimiter, dirname, extname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expectedVerdict, resolveParams, type ExpectedVerdict, type Params, type ScenarioManifest } from '@racelab/shared';
import type { Redis } from 'ioredis';
import { BUILTIN_SCENARIOS } from './builtinScenarios.js';
import type { MutantDefinition, ScenarioDefinition, VariantDefinition } from './types.js';

// Variance of the Job type is irrelevant to the registry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyScenario = ScenarioDefinition<any>;

export interface Catalog {
  scenarios: Map<string, AnyScenario>;
  manifests: ScenarioManifest[];
}

const here = dirname(fileURLToPath(import.meta.url));

/** Maps a built module's path to its TypeScript source, which is what people should read. */
export function sourcePath(moduleUrl: string): string {
  const built = fileURLToPath(moduleUrl);
  const source = built.replace(`${sep}dist${sep}`, `${sep}src${sep}`).replace(/\.js$/, '.ts');
  return existsSync(source) ? source : built;
}

// An import of the kit, as a variant writes it: `from '../../kit/releaseIfMine.js'`.
const KIT_IMPORT = /from '((?:\.\.\/)+kit\/\w+)\.js'/g;
// An import of one kit file by another: `from './renewIfMine.js'`.
const KIT_SIBLING_IMPORT = /from '\.\/(\w+)\.js'/g;

/**
 * A variant's code as the page shows it: its own file, then each kit file it imports (and
 * each kit file those import), once each, so the reader sees every line of the mechanics
 * it runs (the variant's own lines come first: its anchors and line numbers are unchanged).
 */
export function codeOf(file: string): string {
  const own = readFileSync(file, 'utf8');
  const ext = extname(file);
  const kits: string[] = [...new Set([...own.matchAll(KIT_IMPORT)].map((m) => join(dirname(file), `${m[1]!}${ext}`)))];
  const texts = new Map<string, string>();
  for (let i = 0; i < kits.length; i++) {
    const text = readFileSync(kits[i]!, 'utf8');
    texts.set(kits[i]!, text);
    for (const m of text.matchAll(KIT_SIBLING_IMPORT)) {
      const sibling = join(dirname(kits[i]!), `${m[1]!}${ext}`);
      if (!kits.includes(sibling)) kits.push(sibling);
    }
  }
  return [own, ...kits.map((kitFile) => `// ── scenarios/kit/${basename(kitFile)}, imported above ──\n${texts.get(kitFile)!}`)].join('\n');
}

function readExplanation(scenarioUrl: string): string {
  const file = join(dirname(sourcePath(scenarioUrl)), 'explanation.md');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

/** The verdict a variant (or a mutant) should give at these parameters, already resolved. */
export function expectedOf(variant: VariantDefinition<unknown>, params: Params): ExpectedVerdict {
  return expectedVerdict(variant.correct, variant.expectedOtherwise?.(params) ?? null);
}

/** A variant of the scenario by id; its mutants too when asked (tests and the stability pass). */
export function findVariant(
  scenario: AnyScenario,
  id: string,
  options: { mutants?: boolean } = {},
): VariantDefinition<unknown> | MutantDefinition<unknown> | undefined {
  return scenario.variants.find((v) => v.id === id) ?? (options.mutants ? scenario.mutants?.find((m) => m.id === id) : undefined);
}

/** Builds the page's manifest of a scenario, with each variant's source code and expected verdicts. */
export function manifestOf(scenario: AnyScenario): ScenarioManifest {
  const manifest = bareManifestOf(scenario);
  const declaredSets = scenario.stabilityParams ?? [];
  for (const variant of manifest.variants) {
    const definition = findVariant(scenario, variant.id)!;
    variant.expected = [{}, ...declaredSets].map((set) => {
      const resolved = resolveParams(manifest, variant.id, set);
      if (!resolved.ok) throw new Error(`${scenario.id}: a declared set is out of bounds: ${resolved.error}`);
      return expectedOf(definition, resolved.params);
    });
  }
  const unavailable = scenario.unavailable?.() ?? null;
  return { ...manifest, declaredSets, ...(unavailable ? { unavailable } : {}) };
}

function bareManifestOf(scenario: AnyScenario): ScenarioManifest {
  return {
    id: scenario.id,
    title: scenario.title,
    summary: scenario.summary,
    explanation: readExplanation(scenario.source),
    params: scenario.params,
    metrics: scenario.metrics,
    ...(scenario.seenInTheWild ? { seenInTheWild: scenario.seenInTheWild } : {}),
    variants: scenario.variants.map((v) => ({
      id: v.id,
      title: v.title,
      correct: v.correct,
      summary: v.summary,
      code: codeOf(sourcePath(v.source)),
      defaults: v.defaults ?? {},
      faults: v.faults ?? [],
      ...(v.library ? { library: v.library } : {}),
      checkpoints: v.checkpoints ?? [],
    })),
  };
}

/**
 * The folders that hold scenario folders: racelab's own, then those RACELAB_SCENARIOS names
 * (separated as PATH is), e.g. a talk's own scenario kept outside the repository, or a
 * test's fixture. Worker processes inherit the variable, so they load the same folders.
 */
function scenarioRoots(): string[] {
  return [here, ...(process.env.RACELAB_SCENARIOS ?? '').split(delimiter).filter(Boolean)];
}

/** The index module of every scenario folder under `root`, by folder name. */
function scenarioIndexes(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((folder) => ['index.js', 'index.ts'].map((f) => join(root, folder, f)).find(existsSync) ?? []);
}

let scenariosLoading: Promise<Map<string, AnyScenario>> | undefined;

/**
 * Loads every scenario once per process, in teaching order: racelab's own (gathered ahead of
 * time in a worker's bundle, else found by folder), then those of RACELAB_SCENARIOS. A
 * worker needs only these; the server builds the page's manifests from them (loadCatalog).
 */
export function loadScenarios(): Promise<Map<string, AnyScenario>> {
  scenariosLoading ??= (async () => {
    const scenarios = new Map<string, AnyScenario>();
    const add = (scenario: AnyScenario): void => {
      if (scenarios.has(scenario.id)) throw new Error(`a scenario '${scenario.id}' is already loaded`);
      scenarios.set(scenario.id, scenario);
    };
    for (const scenario of BUILTIN_SCENARIOS ?? []) add(scenario);
    const roots = BUILTIN_SCENARIOS ? scenarioRoots().slice(1) : scenarioRoots();
    for (const index of roots.flatMap(scenarioIndexes)) {
      try {
        add(((await import(pathToFileURL(index).href)) as { default: AnyScenario }).default);
      } catch (error) {
        // One broken folder must not take every other scenario down with it.
        console.error(`racelab: scenario folder '${basename(dirname(index))}' did not load: ${String(error)}`);
      }
    }
    const ordered = [...scenarios.values()].sort((a, b) => a.teachingOrder - b.teachingOrder);
    return new Map(ordered.map((s) => [s.id, s]));
  })();
  return scenariosLoading;
}

/**
 * The catalog as this server's Redis can run it: each variant that asks (`unavailable`) is
 * asked once, and marked unavailable with its reason where the Redis lacks what it needs.
 * A variant whose question goes unanswered is marked too: never run on a guess.
 */
export async function catalogOn(catalog: Catalog, redis: Redis): Promise<Catalog> {
  const reasonOf = (variant: VariantDefinition<unknown>): Promise<string | null> =>
    variant.unavailable?.(redis).catch((error: unknown) => `this Redis did not say whether it can: ${(error as Error).message}`) ??
    Promise.resolve(null);
  const manifests = await Promise.all(
    catalog.manifests.map(async (manifest) => {
      const scenario = catalog.scenarios.get(manifest.id)!;
      const variants = await Promise.all(
        manifest.variants.map(async (variant) => {
          const unavailable = await reasonOf(findVariant(scenario, variant.id)!);
          return unavailable ? { ...variant, unavailable } : variant;
        }),
      );
      return { ...manifest, variants };
    }),
  );
  return { scenarios: catalog.scenarios, manifests };
}

let loading: Promise<Catalog> | undefined;

/** Loads every scenario once per process, with the manifests the page renders. */
export function loadCatalog(): Promise<Catalog> {
  loading ??= loadScenarios().then((scenarios) => ({ scenarios, manifests: [...scenarios.values()].map(manifestOf) }));
  return loading;
}

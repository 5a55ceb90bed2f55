// The scenario catalog as the page and the CLI see it: manifests are plain data,
// built by the server from each scenario folder and sent to the browser as JSON (zod
// schemas: the page parses the catalog with them, the types are inferred from them).
import { z } from 'zod';
import { FaultRule } from './faultRule.js';
import { ExpectedVerdict } from './verdict.js';

const paramText = { name: z.string(), label: z.string(), help: z.string() };
/** A scenario's or a variant's names, and its summary: one or two sentences, what it does and what happens. */
const entryText = { id: z.string(), title: z.string(), summary: z.string() };

/** A parameter of a scenario, with the bounds every caller is held to. */
export const ParamSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('int'), ...paramText, unit: z.string().optional(), min: z.number(), max: z.number(), default: z.number() }),
  z.object({
    kind: z.literal('choice'),
    ...paramText,
    options: z.array(z.object({ value: z.string(), label: z.string() })),
    default: z.string(),
  }),
  z.object({
    kind: z.literal('int-list'),
    ...paramText,
    unit: z.string().optional(),
    min: z.number(),
    max: z.number(),
    minItems: z.number().int(),
    maxItems: z.number().int(),
    default: z.array(z.number()),
  }),
]);
export type ParamSpec = z.infer<typeof ParamSpec>;

export const ParamValue = z.union([z.number(), z.string(), z.array(z.number())]);
export type ParamValue = z.infer<typeof ParamValue>;
export const Params = z.record(z.string(), ParamValue);
export type Params = z.infer<typeof Params>;

export const VariantManifest = z.object({
  ...entryText,
  correct: z.boolean(),
  /** The variant's source code as shown beside the timeline. */
  code: z.string(),
  /** A variant that runs an npm lock library, at the version racelab pins: the page lists these apart. */
  library: z.object({ name: z.string(), version: z.string() }).optional(),
  /** Parameter values this variant's demonstration needs, over the scenario's defaults. */
  defaults: Params,
  /** Faults the demonstration applies unless the caller gives its own plan. */
  faults: z.array(FaultRule),
  /** Named steps in the code where a fault may strike. */
  checkpoints: z.array(z.string()),
  /**
   * The verdict expected at the defaults and at each of the scenario's declared sets, in
   * that order (see `ScenarioManifest.declaredSets`); absent in older recordings.
   */
  expected: z.array(ExpectedVerdict).optional(),
  /** Why this server's stores cannot run this variant (a command its Redis lacks); absent when they can. Its runs are refused with this reason. */
  unavailable: z.string().optional(),
});
export type VariantManifest = z.infer<typeof VariantManifest>;

export const MetricSpec = z.object({
  name: z.string(),
  label: z.string(),
  /** Words for values that are codes rather than amounts, e.g. Redis's TTL -2 "no key". */
  meanings: z.record(z.string(), z.string()).optional(),
  /**
   * How the figure is observed, store first: "PostgreSQL: rows of emails",
   * "Redis: PTTL of the lock keys after the run", "server: ...". Shown in docs/FIGURES.md's table.
   */
  source: z.string().optional(),
  /** Only a worker can give this figure (its own count): the page and the JSON say so. */
  reported: z.boolean().optional(),
});
export type MetricSpec = z.infer<typeof MetricSpec>;

/**
 * A public, checkable source where a scenario's mistake happened or was analysed: a
 * postmortem, an analysis, a library's documentation or issue. `summary` says in one line
 * what happened there; the page links `title` to `url` and shows the summary beside it.
 */
export const WildSource = z.object({
  title: z.string().trim().min(1),
  url: z.url({ protocol: /^https$/ }),
  summary: z.string().trim().min(1),
});
export type WildSource = z.infer<typeof WildSource>;

export const ScenarioManifest = z.object({
  ...entryText,
  /** Plain-words explanation: why the broken variants fail, what the correct ones change. */
  explanation: z.string(),
  params: z.array(ParamSpec),
  metrics: z.array(MetricSpec),
  variants: z.array(VariantManifest),
  /** Parameter sets besides the defaults at which every variant is checked run after run. */
  declaredSets: z.array(Params).optional(),
  /** Where this mistake was seen in the wild (see WildSource); absent in older recordings. */
  seenInTheWild: z.array(WildSource).optional(),
  /** Why this machine cannot run it (what to install); absent when it can. Its runs are refused with this reason. */
  unavailable: z.string().optional(),
});
/** A scenario as the page and the CLI see it. */
export type ScenarioManifest = z.infer<typeof ScenarioManifest>;

/**
 * Why a run of this variant is refused on this server, in the words the page, the CLI and the
 * tests use ("duplicate-job/token-delex is unavailable here: needs …"); null when it can run.
 */
export function unavailableHere(scenario: ScenarioManifest, variantId: string): string | null {
  if (scenario.unavailable) return `${scenario.id} is unavailable here: ${scenario.unavailable}`;
  const reason = scenario.variants.find((v) => v.id === variantId)?.unavailable;
  return reason ? `${scenario.id}/${variantId} is unavailable here: ${reason}` : null;
}

export type ParamsResult = { ok: true; params: Params } | { ok: false; error: string };

/** "unknown scenario 'x'; known: a, b": the page's, the CLI's and the stability pass's words. */
export function unknownScenario(id: string, scenarios: readonly { id: string }[]): string {
  return `unknown scenario '${id}'; known: ${scenarios.map((s) => s.id).join(', ')}`;
}

/** "unknown variant 'x' of duplicate-job; known: no-lock, …". */
export function unknownVariant(id: string, scenario: { id: string; variants: readonly { id: string }[] }): string {
  return `unknown variant '${id}' of ${scenario.id}; known: ${scenario.variants.map((v) => v.id).join(', ')}`;
}

/** The defaults a run of this variant starts from: scenario defaults, then the variant's. */
export function defaultParams(scenario: ScenarioManifest, variantId: string): Params {
  const params: Params = {};
  for (const spec of scenario.params) params[spec.name] = spec.default;
  const variant = scenario.variants.find((v) => v.id === variantId);
  return { ...params, ...(variant?.defaults ?? {}) };
}

/** Describes the accepted range of a parameter, in the words every error message uses. */
export function describeBounds(spec: ParamSpec): string {
  switch (spec.kind) {
    case 'int':
      return `an integer from ${spec.min} to ${spec.max}`;
    case 'choice':
      return `one of ${spec.options.map((o) => o.value).join(', ')}`;
    case 'int-list':
      return `a comma-separated list of ${spec.minItems} to ${spec.maxItems} integers from ${spec.min} to ${spec.max}`;
  }
}

function parseInteger(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) ? raw : undefined;
  if (typeof raw === 'string' && /^-?\d{1,15}$/.test(raw.trim())) return Number(raw.trim());
  return undefined;
}

function parseOne(spec: ParamSpec, raw: unknown): ParamValue | undefined {
  switch (spec.kind) {
    case 'int': {
      const n = parseInteger(raw);
      return n !== undefined && n >= spec.min && n <= spec.max ? n : undefined;
    }
    case 'choice':
      return typeof raw === 'string' && spec.options.some((o) => o.value === raw) ? raw : undefined;
    case 'int-list': {
      const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
      if (!items || items.length < spec.minItems || items.length > spec.maxItems) return undefined;
      const values = items.map(parseInteger);
      return values.every((v): v is number => v !== undefined && v >= spec.min && v <= spec.max) ? values : undefined;
    }
  }
}

/**
 * Validates caller-supplied parameters against a scenario's manifest and fills in defaults.
 * Strings are accepted for every kind, so the CLI, the URL and the page share one parser
 * and one set of error messages.
 */
export function resolveParams(scenario: ScenarioManifest, variantId: string, raw: Record<string, unknown>): ParamsResult {
  const params = defaultParams(scenario, variantId);
  for (const [name, value] of Object.entries(raw)) {
    const spec = scenario.params.find((p) => p.name === name);
    if (!spec) {
      const known = scenario.params.map((p) => p.name).join(', ');
      return { ok: false, error: `unknown parameter '${name}' for ${scenario.id}; known: ${known}` };
    }
    const parsed = parseOne(spec, value);
    if (parsed === undefined && (value === undefined || (typeof value === 'string' && value.trim() === ''))) {
      // An emptied field: say what it takes, not "got " with nothing after it.
      return { ok: false, error: `parameter '${name}' is empty: it must be ${describeBounds(spec)}` };
    }
    if (parsed === undefined) {
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      return {
        ok: false,
        error: `parameter '${name}' must be ${describeBounds(spec)}, got ${String(shown).slice(0, 40)}`,
      };
    }
    params[name] = parsed;
  }
  return { ok: true, params };
}

/** Formats a parameter value the way the CLI and the URL take it back. */
export function formatParam(value: ParamValue): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

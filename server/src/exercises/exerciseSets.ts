// The sets an exercise is graded at: the scenario's defaults and every declared set
// (stabilityParams) where its solution is expected to pass, each at the parameters the
// solution runs at there, named in words from those parameters. Two sets that come to the
// same parameters are graded once.
import { resolveParams, type ExerciseSet, type Params, type ParamSpec, type ScenarioManifest } from '@racelab/shared';
import { expectedOf, type AnyScenario } from '../scenarios/registry.js';
import type { ExerciseDefinition, VariantDefinition } from '../scenarios/types.js';

/** A set to grade at: as the wire says it, and the parameters the runs get. */
export interface GradedSet {
  set: ExerciseSet;
  /** Every parameter, resolved over the solution's defaults. */
  params: Params;
}

/** The sets `exercise` is graded at, in order: the defaults first, then the declared sets the solution passes. */
export function exerciseSets(
  scenario: AnyScenario,
  manifest: ScenarioManifest,
  exercise: ExerciseDefinition,
  solution: VariantDefinition<unknown>,
): GradedSet[] {
  const declared: { params: Params; reason: string }[] = [
    { params: {}, reason: 'the defaults' },
    ...(scenario.stabilityParams ?? []).map((params, i) => ({ params, reason: exercise.setReasons[i] ?? 'a declared set' })),
  ];
  const graded: GradedSet[] = [];
  const seen = new Set<string>();
  for (const { params: declaredParams, reason } of declared) {
    const resolved = resolveParams(manifest, solution.id, declaredParams);
    if (!resolved.ok) throw new Error(`${scenario.id}: a declared set is out of bounds: ${resolved.error}`);
    if (expectedOf(solution, resolved.params).verdict !== 'pass') continue;
    const key = paramsKey(resolved.params);
    if (seen.has(key)) continue;
    seen.add(key);
    const label = Object.keys(declaredParams).length === 0 ? 'the defaults' : setWords(scenario.params, declaredParams);
    graded.push({ set: { label, params: resolved.params, reason }, params: resolved.params });
  }
  return graded;
}

/** The same parameters give the same key, whatever their order. */
export function paramsKey(params: Params): string {
  return JSON.stringify(
    Object.keys(params)
      .sort()
      .map((name) => [name, params[name]]),
  );
}

/** A declared set in words, in the manifest's order of parameters: "workers 3, arrival late, lease 2 s, work 3 s, failure first fails". */
export function setWords(specs: ParamSpec[], params: Params): string {
  return specs
    .filter((spec) => params[spec.name] !== undefined)
    .map((spec) => `${spec.label.toLowerCase()} ${valueWords(spec, params[spec.name]!)}`)
    .join(', ');
}

function valueWords(spec: ParamSpec, value: Params[string]): string {
  if (Array.isArray(value)) return value.map((v) => unitWords(spec, v)).join(', ');
  if (typeof value === 'string') return value.replaceAll('-', ' ');
  return unitWords(spec, value);
}

/** 2000 ms as "2 s", 250 ms as "250 ms"; a count as it is. */
function unitWords(spec: ParamSpec, value: number): string {
  const unit = 'unit' in spec ? spec.unit : undefined;
  if (unit === 'ms') return value >= 1000 && value % 100 === 0 ? `${value / 1000} s` : `${value} ms`;
  return unit ? `${value} ${unit}` : String(value);
}

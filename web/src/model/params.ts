// Parameter inputs as the page holds them (the text in each field), checked with the
// same parser and the same words the server uses.
import { defaultParams, formatParam, resolveParams, type Params, type ScenarioManifest } from '@racelab/shared';

export type ParamInputs = Record<string, string>;

/** The text each field shows for a variant's defaults. */
export function defaultInputs(scenario: ScenarioManifest, variantId: string): ParamInputs {
  const inputs: ParamInputs = {};
  for (const [name, value] of Object.entries(defaultParams(scenario, variantId))) inputs[name] = formatParam(value);
  return inputs;
}

/** One error per field that does not parse, in resolveParams' words. */
export function fieldErrors(scenario: ScenarioManifest, variantId: string, inputs: ParamInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const spec of scenario.params) {
    const raw = inputs[spec.name];
    if (raw === undefined) continue;
    const result = resolveParams(scenario, variantId, { [spec.name]: raw });
    if (!result.ok) errors[spec.name] = result.error;
  }
  return errors;
}

export type ParamCheck = { ok: true; params: Params } | { ok: false; error: string };

/** The whole form: the parameters to send, or the first error. */
export function checkInputs(scenario: ScenarioManifest, variantId: string, inputs: ParamInputs): ParamCheck {
  const known: ParamInputs = {};
  for (const spec of scenario.params) if (inputs[spec.name] !== undefined) known[spec.name] = inputs[spec.name]!;
  return resolveParams(scenario, variantId, known);
}

/** Parameters as sent on the wire: numbers and strings (lists as "0,600,850"). */
export function wireParams(params: Params): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) out[name] = Array.isArray(value) ? formatParam(value) : value;
  return out;
}

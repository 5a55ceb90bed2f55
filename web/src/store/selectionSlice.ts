import type { ScenarioManifest } from '@racelab/shared';
import { defaultInputs } from '../model/params.js';
import type { SelectionSlice, SliceCreator, State } from './types.js';

/** A scenario by id: from the server's catalog, else from a recording on the page. */
export function findScenario(s: Pick<State, 'catalog' | 'runs'>, id: string | null): ScenarioManifest | undefined {
  if (id === null) return undefined;
  const known = s.catalog?.find((x) => x.id === id);
  if (known) return known;
  for (const run of Object.values(s.runs)) if (run.manifest?.id === id) return run.manifest;
  return undefined;
}

/** The selection a variant starts from: its defaults and its own fault plan, no schedule. */
export function variantSetup(scenario: ScenarioManifest, variantId: string) {
  const variant = scenario.variants.find((v) => v.id === variantId);
  return { variantId, paramInputs: defaultInputs(scenario, variantId), faults: variant?.faults ?? [], schedule: null };
}

export const createSelectionSlice: SliceCreator<SelectionSlice> = (set, get) => ({
  scenarioId: null,
  variantId: null,
  paramInputs: {},
  faults: [],
  speed: 1,
  compareWith: null,
  schedule: null,
  selectScenario(id) {
    const scenario = findScenario(get(), id);
    const variant = scenario?.variants[0];
    if (!scenario || !variant) return;
    set({ scenarioId: id, compareWith: null, ...variantSetup(scenario, variant.id) });
  },
  selectVariant(id) {
    const scenario = findScenario(get(), get().scenarioId);
    if (!scenario?.variants.some((v) => v.id === id)) return;
    // Each variant's demonstration needs its own defaults and fault plan.
    set((s) => ({ ...variantSetup(scenario, id), compareWith: s.compareWith === id ? null : s.compareWith }));
  },
  setParamInput(name, text) {
    // A refusal answered the old text: the new text is checked as it is typed.
    set((s) => ({ paramInputs: { ...s.paramInputs, [name]: text }, runError: null }));
  },
  setFaults(faults) {
    set({ faults });
  },
  setSpeed(speed) {
    set({ speed });
  },
  setCompareWith(compareWith) {
    set({ compareWith });
  },
  dropSchedule() {
    set({ schedule: null });
  },
  applySetup(setup) {
    const scenario = findScenario(get(), setup.scenario ?? get().scenarioId);
    if (!scenario) return;
    const variant =
      scenario.variants.find((v) => v.id === setup.variant) ??
      scenario.variants.find((v) => v.id === get().variantId) ??
      scenario.variants[0];
    if (!variant) return;
    const base = variantSetup(scenario, variant.id);
    const typed: Record<string, string> = {};
    for (const spec of scenario.params) if (setup.params[spec.name] !== undefined) typed[spec.name] = setup.params[spec.name]!;
    const other = scenario.variants.find((v) => v.id === setup.compare && v.id !== variant.id);
    set({
      scenarioId: scenario.id,
      ...base,
      paramInputs: { ...base.paramInputs, ...typed },
      faults: setup.faults ?? base.faults,
      speed: setup.speed ?? get().speed,
      compareWith: other?.id ?? null,
      // A schedule is for the variant it was found in.
      schedule: setup.schedule && variant.id === setup.variant ? setup.schedule : null,
    });
  },
});

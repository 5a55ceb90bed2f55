import { defaultInputs } from '../model/params.js';
import type { SelectionSlice, SliceCreator } from './types.js';

export const createSelectionSlice: SliceCreator<SelectionSlice> = (set, get) => ({
  scenarioId: null,
  variantId: null,
  paramInputs: {},
  selectScenario(id) {
    const scenario = get().catalog?.find((s) => s.id === id);
    if (!scenario) return;
    const variant = scenario.variants[0];
    set({
      scenarioId: id,
      variantId: variant?.id ?? null,
      paramInputs: variant ? defaultInputs(scenario, variant.id) : {},
    });
  },
  selectVariant(id) {
    const { catalog, scenarioId } = get();
    const scenario = catalog?.find((s) => s.id === scenarioId);
    if (!scenario?.variants.some((v) => v.id === id)) return;
    // Each variant's demonstration needs its own defaults.
    set({ variantId: id, paramInputs: defaultInputs(scenario, id) });
  },
  setParamInput(name, text) {
    set((s) => ({ paramInputs: { ...s.paramInputs, [name]: text } }));
  },
});

import type { CatalogSlice, SliceCreator } from './types.js';
import { variantSetup } from './selectionSlice.js';

export const createCatalogSlice: SliceCreator<CatalogSlice> = (set, get) => ({
  catalog: null,
  setCatalog(catalog) {
    const { scenarioId, variantId } = get();
    const scenario = catalog.find((s) => s.id === scenarioId) ?? catalog[0];
    if (!scenario) {
      set({ catalog, scenarioId: null, variantId: null, paramInputs: {}, faults: [] });
      return;
    }
    const variant = scenario.variants.find((v) => v.id === variantId) ?? scenario.variants[0];
    const keep = scenario.id === scenarioId && variant?.id === variantId;
    set({
      catalog,
      scenarioId: scenario.id,
      variantId: variant?.id ?? null,
      // A reconnect brings the same catalog again: keep what the user typed and planned.
      ...(keep || !variant ? {} : variantSetup(scenario, variant.id)),
    });
  },
});

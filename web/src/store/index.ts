// The page's one store. Actions are reachable outside React as useStore.getState().x().
import { create } from 'zustand';
import { createCatalogSlice } from './catalogSlice.js';
import { createConnectionSlice } from './connectionSlice.js';
import { createCursorSlice } from './cursorSlice.js';
import { createExerciseSlice } from './exerciseSlice.js';
import { createRunsSlice } from './runsSlice.js';
import { createSelectionSlice } from './selectionSlice.js';
import type { State } from './types.js';
import { createUiSlice } from './uiSlice.js';

export function createAppStore() {
  return create<State>()((set, get) => ({
    ...createCatalogSlice(set, get),
    ...createConnectionSlice(set, get),
    ...createSelectionSlice(set, get),
    ...createUiSlice(set, get),
    ...createRunsSlice(set, get),
    ...createCursorSlice(set, get),
    ...createExerciseSlice(set, get),
  }));
}

export const useStore = createAppStore();
export type AppStore = typeof useStore;
export type { State } from './types.js';

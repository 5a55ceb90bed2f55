import { exerciseOf } from '../model/exercise/onServer.js';
import type { ExerciseSlice, SliceCreator } from './types.js';

export const createExerciseSlice: SliceCreator<ExerciseSlice> = (set, get) => ({
  exercises: { state: 'asking' },
  exercise: null,
  setExercises(exercises) {
    set({ exercises });
    // An exercise opened before the answer (a link) starts from its variant once that is known.
    const open = get().exercise;
    if (open !== null && get().shown.length === 0) get().openExercise(open);
  },
  openExercise(scenario) {
    const s = get();
    // The exercise is its scenario's: the playground around it shows that scenario, set up as its broken variant.
    if (scenario !== null && scenario !== s.scenarioId) s.selectScenario(scenario);
    const from = exerciseOf(s.exercises, scenario)?.start.variant;
    if (from && get().variantId !== from) get().selectVariant(from);
    set({ exercise: scenario, ...(scenario === null ? {} : { scorecard: false }) });
  },
});

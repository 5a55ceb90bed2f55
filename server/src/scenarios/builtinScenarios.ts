// racelab's own scenarios, when something has gathered them ahead of time. Here, in the
// built server, nothing has: the registry finds them by folder (scenarioIndexes). The
// worker's bundle (server/scripts/bundleWorker.mjs) replaces this module with one that
// imports every folder's index, so a worker process loads one file instead of hundreds.
import type { AnyScenario } from './registry.js';

export const BUILTIN_SCENARIOS: readonly AnyScenario[] | null = null;

// What the server offers the tools beside it (tools/: the benchmark, the fuzzer, the
// stability pass): runs, the catalog, the stores, the socket server. The server itself never
// imports this file; `npm start` is main.ts.
import { fileURLToPath } from 'node:url';

/** The built entry of `npm start` (dist/main.js), for tools that start the real server as a process. */
export const serverMain = fileURLToPath(new URL('./main.js', import.meta.url));

export { intOption, readOptions, splitParam } from './commandLine.js';
export { createAppServer } from './http/appServer.js';
export { HEALTH_PATH, READY_PATH, READY_TIMEOUT_MS } from './http/health.js';
export { DEFAULT_LIMITS } from './http/limits.js';
export { BUDGET_PREFIX } from './runs/connectionBudget.js';
export { explore } from './explore/explorer.js';
export { EXPLORE_PARALLEL } from './explore/exploreCli.js';
export { Playground, type StartRequest, type Started } from './runs/playground.js';
export { deleteKeys } from './runs/deleteKeys.js';
export { Run, type RunPhase } from './runs/run.js';
export { WorkerPool } from './runs/workerPool.js';
export { expectedOf, loadCatalog, manifestOf } from './scenarios/registry.js';
export {
  choiceParam,
  defineScenario,
  defineVariant,
  intParam,
  type RunFixture,
  type ScenarioDefinition,
  type VariantDefinition,
  type WorkerContext,
} from './scenarios/types.js';
export { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, findServices } from './services/index.js';
export { freePort } from './services/freePort.js';
export { findHaproxy, startWorkshop, type Workshop } from './workshop/workshop.js';
export { WORKER_ENTRY, WORKER_EXEC_ARGV } from './worker/entry.js';
export type { FromWorker, ToWorker, WorkerPlan } from './worker/ipc.js';
export { createWorkerContext } from './worker/workerContext.js';

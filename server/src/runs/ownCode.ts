// Code that is not racelab's, run as a variant (an exercise's edited code): the run plays it
// like any other, with the same checkpoints, observers and verdict, but its variant comes
// from here, its workers are fresh processes started for this run alone (never the warm
// pool's), and each worker's plan names the module to load.
import type { ServiceEndpoint, VariantDefinition } from '../scenarios/types.js';
import type { WorkerProcess } from '../worker/ipc.js';
import type { WorkerLaunch } from './workerPool.js';

/** Where one of the run's workers connects (with the run's own users in the URLs) and how its lab starts it. */
export type OwnWorkerLaunch = Omit<WorkerLaunch, 'redisUrl' | 'databaseUrl'> & RunGiven & { redisUrl: string; databaseUrl: string };

/** What a run's setup gives its workers beyond the stores, and so what their walls must let through. */
export interface RunGiven {
  /** The run's own services the worker connects to (RunFixture.reaches, and the URLs it is handed). */
  reaches: ServiceEndpoint[];
  /** The folders it writes in (RunFixture.folders). */
  folders: string[];
}

export interface OwnCode {
  /** The variant as the server knows it: id, checkpoints, defaults, faults and expected verdict; its `run` is never called here. */
  variant: VariantDefinition<unknown>;
  /** The compiled module each worker loads the variant from (a file URL). */
  moduleUrl: string;
  /** Starts one fresh worker per launch, for this run alone; all ready, or none left. */
  startWorkers(launches: OwnWorkerLaunch[]): Promise<WorkerProcess[]>;
}

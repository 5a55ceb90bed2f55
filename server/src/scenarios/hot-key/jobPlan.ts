// Which jobs a hot-key run has and who runs them, from the parameters alone: job i is
// about entity i mod entities and runs on worker i mod workers, so the plan (and what a
// correct lock should give) is the same on every run.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';

export interface PlannedJob {
  /** job-1, job-2, … */
  id: string;
  /** The entity the job works on: customer-1, customer-2, … */
  entity: string;
  /** The worker process that runs it. */
  worker: string;
}

export function workerIds(params: Params): string[] {
  return Array.from({ length: intParam(params, 'workers') }, (_, i) => `worker-${i + 1}`);
}

export function entityNames(params: Params): string[] {
  return Array.from({ length: intParam(params, 'entities') }, (_, i) => `customer-${i + 1}`);
}

export function planJobs(params: Params): PlannedJob[] {
  const entities = entityNames(params);
  const workers = workerIds(params);
  return Array.from({ length: intParam(params, 'jobs') }, (_, i) => ({
    id: `job-${i + 1}`,
    entity: entities[i % entities.length]!,
    worker: workers[i % workers.length]!,
  }));
}

/** How many jobs can run at once when only jobs of the same entity exclude each other. */
export function entitiesInParallel(params: Params): number {
  return Math.min(intParam(params, 'jobs'), intParam(params, 'entities'));
}

// What a run plays, worked out from its request before anything starts: the variant, its
// durations and fault plan at the run's speed, its workers, what its lab needs of the
// machine, and its deadline.
import type { FaultRule, Params } from '@racelab/shared';
import type { findVariant } from '../scenarios/registry.js';
import type { LabNeeds } from '../scenarios/types.js';
import type { RunRequest } from './run.js';
import { scaleDurations, scaleFaults } from './runSpeed.js';

/** A scenario's variant, or one of its mutants (tests and the stability pass). */
export type Variant = NonNullable<ReturnType<typeof findVariant>>;

export interface Setting {
  variant: Variant;
  speed: number;
  /** The parameters with their durations scaled: what workers, stores and the deadline see (the verdict's expectations see the chosen ones). */
  timed: Params;
  /** The fault plan, scaled. */
  faults: FaultRule[];
  workerIds: string[];
  /** What the run's lab needs of the machine, for a scenario with network or clock faults. */
  needs: LabNeeds | undefined;
  /** From the workers' hand-out to the verdict, in ms. */
  deadlineMs: number;
  /** Its workers may serve the next run once their part is over (keepsWorkers). */
  keepsWorkers: boolean;
}

/** The request's variant at the request's speed. */
export function settingOf(request: RunRequest, variant: Variant): Setting {
  const { scenario, params } = request;
  const speed = request.speed ?? 1;
  const timed = scaleDurations(scenario.params, params, speed);
  const needs = scenario.lab?.(timed);
  return {
    variant,
    speed,
    timed,
    faults: scaleFaults(request.faults ?? variant.faults ?? [], speed),
    workerIds: scenario.workers(params),
    needs,
    deadlineMs: request.deadlineMs ?? scenario.deadlineMs(timed),
    keepsWorkers: keepsWorkers(request, { needs, variant }),
  };
}

/**
 * Whether a run's workers may serve the next run once their part is over, instead of exiting
 * (worker/workerMain.ts says when a worker offers to, runs/runProcesses.ts when it is taken
 * back: its part ended well, nothing struck it, and it left nothing running). Only a run of
 * racelab's own catalog code, whose code keeps no state of a run outside the run's
 * connections, which the worker closes, and makes fresh ones for the next. Never a lab's (its
 * processes were started inside the lab's hosts), someone's own code (its process is the
 * run's alone), a lock library's variant, or a scenario that says its workers serve one run
 * (npm code or process state racelab does not own). A worker that comes back is as warm as one
 * forked for the pool: the next run starts it from the same place, with its own connections;
 * what it saves is the fork (a third of a second of CPU a worker, BENCHMARKS.md).
 */
export function keepsWorkers(
  { ownCode, scenario }: Pick<RunRequest, 'ownCode' | 'scenario'>,
  { needs, variant }: Pick<Setting, 'needs' | 'variant'>,
): boolean {
  return !ownCode && !needs && !variant.library && !scenario.workersServeOneRun;
}

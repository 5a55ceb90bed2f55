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
}

/** The request's variant at the request's speed. */
export function settingOf(request: RunRequest, variant: Variant): Setting {
  const { scenario, params } = request;
  const speed = request.speed ?? 1;
  const timed = scaleDurations(scenario.params, params, speed);
  return {
    variant,
    speed,
    timed,
    faults: scaleFaults(request.faults ?? variant.faults ?? [], speed),
    workerIds: scenario.workers(params),
    needs: scenario.lab?.(timed),
    deadlineMs: request.deadlineMs ?? scenario.deadlineMs(timed),
  };
}

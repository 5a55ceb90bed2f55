// A run's speed: at speed 0.25 every duration of the run — each parameter in ms,
// each planned stall — lasts four times longer, so a race plays in slow motion and still
// comes out the same.
import type { FaultRule, Params, ParamSpec } from '@racelab/shared';

/** Divides every millisecond parameter by `speed`; other parameters are left as they are. */
export function scaleDurations(specs: ParamSpec[], params: Params, speed: number): Params {
  if (speed === 1) return params;
  const scaled: Params = { ...params };
  for (const spec of specs) {
    const value = params[spec.name];
    if (spec.kind === 'int' && spec.unit === 'ms' && typeof value === 'number') scaled[spec.name] = Math.round(value / speed);
  }
  return scaled;
}

/** Divides the ms of every planned fault (a stall, a partition, an isolate) by `speed`. */
export function scaleFaults(faults: FaultRule[], speed: number): FaultRule[] {
  return faults.map((f) => (f.ms === undefined ? f : { ...f, ms: Math.round(f.ms / speed) }));
}

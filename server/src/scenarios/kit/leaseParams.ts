// The parameters every lab of a lease and its holders' work shares: the same names, units
// and bounds, written once; each lab says in its own words what they do there, and moves
// a bound only where its story needs it.
import type { ParamSpec } from '@racelab/shared';

type Bounds = { min?: number; max?: number; default?: number };

/** leaseMs: how long the lease lives, 100 ms to 10 s, 1 s by default. */
export function leaseParam(help: string, bounds: Bounds = {}): ParamSpec {
  return { kind: 'int', name: 'leaseMs', label: 'Lease', unit: 'ms', help, min: 100, max: 10_000, default: 1000, ...bounds };
}

/** pauseMs: how long worker-1's process is stopped (SIGSTOP), up to 15 s, 2.5 s by default. */
export function pauseParam(help: string, bounds: Bounds = {}): ParamSpec {
  return { kind: 'int', name: 'pauseMs', label: 'Pause', unit: 'ms', help, min: 0, max: 15_000, default: 2500, ...bounds };
}

/** workMs: how long each worker works under the lease before it acts, up to 5 s, 300 ms by default. */
export function workParam(help: string, bounds: Bounds = {}): ParamSpec {
  return { kind: 'int', name: 'workMs', label: 'Work', unit: 'ms', help, min: 0, max: 5000, default: 300, ...bounds };
}

// Every fault of a run, with the mechanism that produced it, from the run's log: the
// network and clock faults the lab staged (partition, isolation, slowdown, clock skew, clock jump, slow link),
// the clock each worker reported, and the process faults the server struck with signals.
import type { RunEvent } from './events.js';

export interface FaultWithMechanism {
  fault: string;
  /** The worker it struck (or whose process played it), or null for the lab's own links and nodes. */
  workerId: string | null;
  target: string;
  /** "kernel nftables drop", "kernel link down", "proxy", "kernel netem", "proxy delay", "libfaketime", "LD_PRELOAD wall clock", "simulated expiry", "SIGSTOP", … */
  mechanism: string;
  atMs: number;
}

/** The run's faults in log order, each with its mechanism. */
export function faultsOf(events: RunEvent[]): FaultWithMechanism[] {
  return events.flatMap((e): FaultWithMechanism[] => {
    const base = { workerId: e.workerId, atMs: e.atMs };
    switch (e.type) {
      case 'fault-staged':
        return [{ ...base, fault: e.fault, target: e.target, mechanism: e.mechanism }];
      case 'process-paused':
        return [{ ...base, fault: 'stall', target: e.workerId ?? 'process', mechanism: 'SIGSTOP' }];
      case 'process-killed':
        return [{ ...base, fault: 'kill', target: e.workerId ?? 'process', mechanism: e.signal }];
      default:
        return [];
    }
  });
}

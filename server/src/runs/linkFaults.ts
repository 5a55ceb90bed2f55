// A run's partitions of whole workers: the page's "partition worker-2" and a fault plan's
// `partition` at a checkpoint set the worker's lab host link down in the kernel (every
// connection it has, to the run's stores and to the lab's nodes, hangs), and heal it again
// (the page's "heal", or the plan's `ms` run out). Only for a worker that runs as a lab host
// of its own; any other gets a clear error. Each cut and heal is logged as a fault-staged
// event with its mechanism, once the kernel has done it.
import type { StagedFault } from '@racelab/shared';
import type { LabHost } from '../labnet/labHost.js';
import { MECHANISM } from '../labnet/mechanisms.js';

export interface LinkFaultHost {
  /** Logs a staged fault of one worker (nothing once the run has ended). */
  staged(workerId: string, fault: Omit<StagedFault, 'workerId'>): void;
  /** A line for the server's log: a kernel command that failed. */
  logLine(line: string): void;
}

/** Why a worker cannot be partitioned: the words of the error a page or plan gets. */
export const notAHost = (workerId: string): string =>
  `${workerId} does not run as a lab host of its own: a partition needs a scenario whose lab has hosts (redlock) on a machine with network namespaces (Linux, as root)`;

export class LinkFaults {
  private hosts: Record<string, LabHost> = {};
  private readonly cut = new Set<string>();
  private readonly healTimers = new Set<NodeJS.Timeout>();
  private ended = false;

  constructor(private readonly host: LinkFaultHost) {}

  /** The workers that run as lab hosts, once the run's lab is made. */
  useHosts(hosts: Record<string, LabHost>, workerIds: string[]): void {
    this.hosts = Object.fromEntries(workerIds.filter((id) => hosts[id]).map((id) => [id, hosts[id]!]));
  }

  /** Worker ids that can be partitioned. */
  get partitionable(): string[] {
    return Object.keys(this.hosts);
  }

  /** Cuts the worker's link (healed after `ms` when given); returns an error when it cannot. */
  partition(workerId: string, ms?: number): string | undefined {
    const lab = this.hosts[workerId];
    if (!lab) return notAHost(workerId);
    if (this.cut.has(workerId)) return `${workerId} is already partitioned`;
    this.cut.add(workerId);
    void this.setLink(lab, workerId, false, ms === undefined ? "to the run's end or a heal" : `for ${ms} ms`);
    if (ms !== undefined) {
      const timer = setTimeout(() => {
        this.healTimers.delete(timer);
        this.heal(workerId);
      }, ms);
      this.healTimers.add(timer);
    }
    return undefined;
  }

  /** Sets the worker's link up again; returns an error when it is not cut. */
  heal(workerId: string): string | undefined {
    const lab = this.hosts[workerId];
    if (!lab) return notAHost(workerId);
    if (!this.cut.delete(workerId)) return `${workerId} is not partitioned`;
    void this.setLink(lab, workerId, true, 'healed');
    return undefined;
  }

  /** The run is over: no heal is still to come (the lab's namespaces go with the run). */
  end(): void {
    this.ended = true;
    for (const timer of this.healTimers) clearTimeout(timer);
    this.healTimers.clear();
  }

  private async setLink(lab: LabHost, workerId: string, up: boolean, how: string): Promise<void> {
    try {
      await lab.setLink(up);
      if (this.ended) return;
      this.host.staged(workerId, {
        fault: up ? 'partition-healed' : 'partition',
        target: `${workerId}'s link to every host, ${how}`,
        mechanism: MECHANISM.linkDown,
        node: null,
        peer: null,
        worker: workerId,
        slowdown: null,
      });
    } catch (error) {
      this.host.logLine(`${up ? 'healing' : 'partitioning'} ${workerId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

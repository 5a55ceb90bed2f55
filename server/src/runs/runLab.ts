// The lab hosts of one run, for a scenario whose faults are on the network or the clock
// (its `lab` says what it needs): where the machine allows (labnet/mechanisms.ts), each
// worker gets a network namespace of its own with a link to the host, and relays on the
// host end of that link to the run's Redis and PostgreSQL; a worker whose clock is off gets
// libfaketime preloaded with its offset. What the machine does not give is imitated as
// before, and the staged faults say which mechanism plays each.
import type { StagedFault } from '@racelab/shared';
import { createLabHost, type LabHost } from '../labnet/labHost.js';
import { labMechanisms, MECHANISM, type LabMechanisms } from '../labnet/mechanisms.js';
import { startRelay, targetOf, throughRelay, type Relay } from '../labnet/relay.js';
import type { LabNeeds } from '../scenarios/types.js';
import type { WorkerLaunch } from './workerPool.js';

export interface RunLab {
  /** Each worker's lab host by worker id, and each lab node's by name; empty when they run on the host's own network. */
  hosts: Record<string, LabHost>;
  /** How each worker's process starts, in worker order. */
  launches: WorkerLaunch[];
  /** The clock faults, with their mechanism. */
  faults: StagedFault[];
  /** What every worker is told about its clock (`ctx.shared.clockMechanism`). */
  shared: Record<string, string>;
  /** Removes the namespaces, links and relays; the run's processes must be gone first. */
  close(): Promise<void>;
}

export interface StoreUrls {
  redisUrl: string;
  databaseUrl: string;
}

/** libfaketime's offset: seconds, signed, relative to the real clock. */
const fakeOffset = (ms: number): string => `${ms < 0 ? '-' : '+'}${(Math.abs(ms) / 1000).toFixed(3)}`;

/**
 * Each worker's clock off by its offset: libfaketime preloaded in its launch where the
 * machine has it (the worker imitates the skew otherwise); returns the clock faults staged.
 */
function skewClocks(workerIds: string[], offsetsMs: number[], launches: WorkerLaunch[], mechanisms: LabMechanisms): StagedFault[] {
  const faults: StagedFault[] = [];
  const clockMechanism = mechanisms.faketime ? MECHANISM.faketime : MECHANISM.simulatedClock;
  offsetsMs.forEach((offsetMs, i) => {
    if (offsetMs === 0) return;
    const workerId = workerIds[i]!;
    faults.push({
      fault: 'clock-skew',
      target: `${workerId}'s clock ${offsetMs > 0 ? '+' : ''}${offsetMs} ms`,
      mechanism: clockMechanism,
      node: null,
      peer: null,
      worker: workerId,
      slowdown: null,
      workerId,
    });
    if (!mechanisms.faketime) return;
    launches[i]!.env = {
      LD_PRELOAD: mechanisms.faketime,
      FAKETIME: fakeOffset(offsetMs),
      // The run's timeline is stamped from process.hrtime: the host's monotonic clock, never faked.
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
  });
  return faults;
}

/** Starts the run's lab; nothing is left behind when it throws. */
export async function startRunLab(
  workerIds: string[],
  needs: LabNeeds,
  stores: StoreUrls,
  mechanisms: LabMechanisms = labMechanisms(),
): Promise<RunLab> {
  const hosts: Record<string, LabHost> = {};
  const relays: Relay[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(relays.splice(0).map((relay) => relay.close()));
    await Promise.all(Object.values(hosts).map((host) => host.close().catch(() => undefined)));
  };
  try {
    const launches: WorkerLaunch[] = workerIds.map(() => ({}));
    if (needs.network && mechanisms.namespaces) {
      const made = await Promise.all(workerIds.map((id) => createLabHost(id)));
      for (const [i, host] of made.entries()) {
        hosts[workerIds[i]!] = host;
        const [redis, pg] = await Promise.all([
          startRelay(host.hostAddress, targetOf(stores.redisUrl, 6379)),
          startRelay(host.hostAddress, targetOf(stores.databaseUrl, 5432)),
        ]);
        relays.push(redis, pg);
        launches[i] = {
          wrap: host.wrap,
          redisUrl: throughRelay(stores.redisUrl, redis),
          databaseUrl: throughRelay(stores.databaseUrl, pg),
        };
      }
    }
    if (needs.nodes && mechanisms.namespaces && mechanisms.nftables) {
      for (const name of needs.nodes) hosts[name] = await createLabHost(name);
    }
    const offsets = needs.clockOffsetsMs;
    const faults = offsets ? skewClocks(workerIds, offsets, launches, mechanisms) : [];
    const clockMechanism = mechanisms.faketime ? MECHANISM.faketime : MECHANISM.simulatedClock;
    return { hosts, launches, faults, shared: offsets ? { clockMechanism } : {}, close };
  } catch (error) {
    await close();
    throw error;
  }
}

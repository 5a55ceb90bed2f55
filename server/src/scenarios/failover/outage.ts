// The run's outage, played by the server: once the first worker has decided about its
// lock (and, with no replication lag, once the far replica has copied every write), the
// primary (with outage "zone", also the near replica) is killed for real; the
// far replica is asked, before anyone can touch it, whether it has the lock key; then
// the outage waits until Sentinel has promoted the far replica and that replica's own
// replica follows it, and tells the workers (a list on the run's main Redis).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Deployment } from './deployment.js';
import { NODES } from './keys.js';
import { replicationInfo, waitUntil } from './redisInfo.js';

// The outage strikes this long after worker-1's decision, so the timeline's truth lanes
// (sampled every 15 ms) show the lock key on the primary before it dies.
const SHOW_THE_KEY_MS = 100;

export interface OutageRecord {
  killed: string[];
  /** What GET answered on the far replica right after the kill, before its promotion. */
  replicaHadKey: boolean;
  /** The node Sentinel names as the primary once the failover is over. */
  promoted: string;
  /** From the kill to the end of the failover, in ms. */
  failoverMs: number;
}

export interface OutageKeys {
  /** List the first worker pushes to when the outage may start. */
  start: string;
  /** List the outage pushes its record (or error) to. */
  over: string;
  /** The lock key, as it is named on the deployment. */
  lock: string;
}

export interface OutagePlan {
  /** The nodes that die. */
  victims: string[];
  /** Strike only once the far replica has copied every write (no replication lag). */
  awaitCopy: boolean;
  /** Longest the failover may take, in ms. */
  timeoutMs: number;
}

export interface Outage {
  /** The outage's record; throws when it did not happen or failed. */
  record(): OutageRecord;
  /** Stops waiting for a start that will not come; resolves once the outage has settled. */
  stop(): Promise<void>;
}

/** Arms the outage: it waits on `control` (a connection of its own) for the start. */
export function armOutage(deployment: Deployment, control: Redis, keys: OutageKeys, plan: OutagePlan): Outage {
  let record: OutageRecord | undefined;
  let failure: string | undefined;
  const stopping = new AbortController();

  const played = (async () => {
    await control.blpop(keys.start, 0);
    await sleep(SHOW_THE_KEY_MS);
    const primary = deployment.nodes.find((n) => n.name === NODES.primary)!;
    if (plan.awaitCopy) {
      const { master_repl_offset: written } = await replicationInfo(primary.client);
      await waitUntil(
        plan.timeoutMs,
        'the far replica to copy every write',
        async () => {
          const { slave_repl_offset: copied } = await replicationInfo(deployment.far.client);
          return Number(copied) >= Number(written);
        },
        stopping.signal,
      );
    }
    await deployment.link.primaryDying();
    const killedAt = performance.now();
    deployment.kill(plan.victims);
    // EXISTS, not GET: a library may keep its lock as a hash (ioredfour does).
    const replicaHadKey = (await deployment.far.client.exists(keys.lock)) === 1;
    const far2 = deployment.nodes.find((n) => n.name === NODES.far2)!;
    await waitUntil(
      plan.timeoutMs,
      'Sentinel to promote the far replica',
      async () => {
        if ((await deployment.sentinelPrimary()) !== NODES.far) return false;
        const [promoted, follower] = await Promise.all([replicationInfo(deployment.far.client), replicationInfo(far2.client)]);
        // The far replica is a primary now, and its replica follows its new history (replid).
        return promoted.role === 'master' && follower.master_link_status === 'up' && follower.master_replid === promoted.master_replid;
      },
      stopping.signal,
    );
    record = { killed: plan.victims, replicaHadKey, promoted: NODES.far, failoverMs: Math.round(performance.now() - killedAt) };
    await control.lpush(keys.over, JSON.stringify(record));
  })().catch(async (error: unknown) => {
    failure = `the outage failed: ${error instanceof Error ? error.message : String(error)}`;
    await control.lpush(keys.over, JSON.stringify({ error: failure })).catch(() => undefined);
  });

  return {
    record() {
      if (record) return record;
      throw new Error(failure ?? 'the outage never started: no worker decided about its lock');
    },
    async stop() {
      stopping.abort();
      control.disconnect(); // a BLPOP still waiting fails, and the outage settles
      await played;
    },
  };
}

// The run's Redlock cluster: five independent redis-servers (no replication, nothing
// shared) and one blackhole for the nodes a partition puts out of reach. Started by the
// scenario's setup, stopped by close(); if this process exits first, nothing is left
// running (and a SIGKILLed server's leftovers are reaped by the next one).
import { Redis } from 'ioredis';
import { startEmbeddedRedis } from '../../services/embeddedRedis.js';
import type { StartedService } from '../../services/startedService.js';
import type { RunFixture, RunStores } from '../types.js';
import { startBlackhole, type Blackhole } from './blackhole.js';
import { CLOCK_OFFSET_KEY, JUMPING_NODE, LOCK_KEY, NODE_COUNT, nodeName, nodeUrlKey } from './keys.js';
import { watchNodeGrants, type NodeGrants } from '../kit/nodeGrants.js';

export interface Cluster extends RunFixture {
  shared: Record<string, string>;
  /** What each node holds for the lock right now, and the jumping node's clock offset. */
  observe(): Promise<Record<string, string>>;
  /** The grants the server sees on the nodes, recorded in the run's grants table. */
  grants: NodeGrants;
  close(): Promise<void>;
}

/** A worker id from a lock token ("worker-1:3f9c…" → "worker-1"). */
const holderOf = (token: string | null): string => (token === null ? 'free' : token.split(':')[0]!);

export async function startCluster(stores: RunStores): Promise<Cluster> {
  const started: StartedService[] = [];
  let blackhole: Blackhole | undefined;
  const killAll = (): void => {
    for (const node of started) node.killSync();
  };
  process.on('exit', killAll);
  try {
    const results = await Promise.allSettled(Array.from({ length: NODE_COUNT }, () => startEmbeddedRedis()));
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    blackhole = await startBlackhole();
  } catch (error) {
    process.off('exit', killAll);
    await Promise.all(started.map((node) => node.stop().catch(() => undefined)));
    throw error;
  }

  // The server's own view of the nodes, for the timeline's truth lanes.
  const clients = started.map((node) => {
    const client = new Redis(node.url, { maxRetriesPerRequest: 1, connectionName: 'racelab-observer' });
    client.on('error', () => undefined);
    return client;
  });
  const shared: Record<string, string> = { blackholeUrl: blackhole.url };
  started.forEach((node, i) => (shared[nodeUrlKey(i)] = node.url));

  // A grant is a majority of the nodes holding one worker's token.
  const grants = watchNodeGrants(stores, clients.map((client) => ({ client, dead: () => false })), LOCK_KEY, Math.floor(NODE_COUNT / 2) + 1);

  return {
    shared,
    grants,
    async observe() {
      const locks = await Promise.all(clients.map((c) => c.get(LOCK_KEY)));
      const lanes: Record<string, string> = {};
      locks.forEach((token, i) => (lanes[`${nodeName(i)} lock`] = holderOf(token)));
      const offsetMs = await clients[JUMPING_NODE]!.get(CLOCK_OFFSET_KEY);
      if (offsetMs !== null) lanes[`${nodeName(JUMPING_NODE)} clock`] = `+${offsetMs} ms`;
      return lanes;
    },
    async close() {
      await grants.stop().catch(() => undefined); // measure has said what went wrong
      for (const client of clients) client.disconnect();
      await blackhole?.close();
      await Promise.all(started.map((node) => node.stop()));
      process.off('exit', killAll);
    },
  };
}

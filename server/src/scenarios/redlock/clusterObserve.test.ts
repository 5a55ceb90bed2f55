// The truth lanes of redlock's nodes come from the server's own connections. A node that
// does not answer a sample (its connection being made again, or the node gone) leaves its
// row as it was: the other nodes' rows still come, and the read does not fail, so a run is
// not cancelled for what the timeline shows. Here node-3 is shut down outright.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { detectLabMechanisms } from '../../labnet/mechanisms.js';
import { startCluster, type Cluster } from './cluster.js';
import { nodeUrlKey } from './keys.js';

const LOCK_KEY = 'lock:document';
let redis: Redis;
let cluster: Cluster;

beforeAll(async () => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const prefix = `racelab-test:${randomBytes(4).toString('hex')}:`;
  const stores = { redis, key: (name: string) => prefix + name, sql: () => Promise.reject(new Error('no SQL here')) };
  cluster = await startCluster(stores, {
    reach: 'all',
    workerIds: ['worker-1', 'worker-2'],
    clockJumpMs: 0,
    lockKey: LOCK_KEY,
    mechanisms: detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' }),
  });
});

afterAll(async () => {
  await cluster?.close();
  redis?.disconnect();
});

/** A connection of the test's own to node `index` (0-based). */
const nodeClient = (index: number): Redis => new Redis(String(cluster.shared[nodeUrlKey(index)]), { maxRetriesPerRequest: 0 });

it("a node that does not answer leaves its row out of the sample; the others' rows come", async () => {
  const node1 = nodeClient(0);
  const node3 = nodeClient(2);
  node3.on('error', () => undefined);
  try {
    await node1.set(LOCK_KEY, 'worker-1:abc');
    expect(await cluster.observe()).toEqual({
      'node-1 lock': 'worker-1',
      'node-2 lock': 'free',
      'node-3 lock': 'free',
      'node-4 lock': 'free',
      'node-5 lock': 'free',
    });

    await node3.call('SHUTDOWN', 'NOSAVE').catch(() => undefined); // the node closes the connection as it goes
    await expect.poll(() => node3.status, { timeout: 5000 }).not.toBe('ready');
    expect(await cluster.observe()).toEqual({
      'node-1 lock': 'worker-1',
      'node-2 lock': 'free',
      'node-4 lock': 'free',
      'node-5 lock': 'free',
    });
  } finally {
    node1.disconnect();
    node3.disconnect();
  }
}, 30_000);

// The library variants of the labs with Redis of their own, end to end on the real stores:
// a lock of one node on the primary that fails over before replication (two holders, the
// stale write lands; with ioredfour's fence, whose counter failed over too, the row refuses
// it), and a Redlock library over the five nodes with two of them out of
// each worker's reach (one majority at a time: nothing stale) and with node-3's clock jump
// (a second majority: the stale write lands).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../testing/testPlayground.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(2);
});
afterAll(() => playground.close());

describe('failover, with a lock library', () => {
  it('redis-semaphore Mutex: the primary dies before its replica has the key; worker-2 takes it on the promoted replica', async () => {
    const { metrics, verdict, events } = await play(playground, 'failover', 'lib-redis-semaphore-mutex');
    expect(metrics).toMatchObject({
      maxConcurrentHolders: 2,
      staleWritesAccepted: 1,
      replicaHadKeyAtFailover: 'no',
      finalWriter: 'worker-1',
    });
    expect(verdict).toBe('fail');
    // Both grants are the library's own values, each seen on the lab's nodes.
    expect(new Set(eventsOf(events, 'lease-acquired').map((e) => e.token)).size).toBe(2);
  }, 60_000);

  it("ioredfour: the promoted replica never had the counter either and hands out the same index; the row refuses worker-1's equal fence", async () => {
    const { metrics, verdict, events } = await play(playground, 'failover', 'lib-ioredfour');
    expect(metrics).toMatchObject({
      maxConcurrentHolders: 2,
      staleWritesAccepted: 0,
      staleWritesRejected: 1,
      replicaHadKeyAtFailover: 'no',
      finalWriter: 'worker-2',
    });
    expect(verdict).toBe('pass');
    // One value and one fence for both grants: the index the dead primary gave, given again.
    const grants = eventsOf(events, 'lease-acquired');
    expect(grants.map((e) => [e.workerId, e.token, e.fence])).toEqual([
      ['worker-1', '{index: 1}', 1],
      ['worker-2', '{index: 1}', 1],
    ]);
  }, 60_000);
});

describe('redlock, with a Redlock library over the five nodes', () => {
  it('redlock 4: in a split each worker reaches three nodes; one majority at a time, nothing stale', async () => {
    const { metrics, verdict } = await play(playground, 'redlock', 'lib-redlock', { reach: 'split', pauseMs: 0 });
    expect(metrics).toMatchObject({ maxConcurrentHolders: 1, staleWritesAccepted: 0, finalWriter: 'worker-2' });
    expect(verdict).toBe('pass');
  }, 40_000);

  it("redlock 4: node-3's clock jumps in a split; worker-2 takes a second majority and worker-1's stale write lands", async () => {
    const { metrics, verdict } = await play(playground, 'redlock', 'lib-redlock', { reach: 'split', pauseMs: 0, clockJumpMs: 1000 });
    expect(metrics).toMatchObject({ maxConcurrentHolders: 2, staleWritesAccepted: 1, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  }, 40_000);
});

describe('a lock library that renews itself, on a lease too short for its renewal', () => {
  it('is refused the run, told why and what lease to use; a lease long enough and a library that does not renew run', () => {
    for (const scenario of ['fencing', 'duplicate-job']) {
      expect(playground.prepare({ scenario, variant: 'lib-redis-semaphore-mutex', params: { leaseMs: 100 } })).toEqual({
        ok: false,
        error:
          "redis-semaphore (Mutex) renews its lock after 80 % of the lease: a 100 ms lease leaves each renewal 20 ms to land, and a busy machine's timer is late by more than that now and then, so the verdict would be luck. Use a lease of 248 ms or more.",
      });
      expect(playground.prepare({ scenario, variant: 'lib-redis-semaphore-mutex', params: { leaseMs: 248 } }).ok).toBe(true);
      expect(playground.prepare({ scenario, variant: 'lib-redlock', params: { leaseMs: 100 } }).ok).toBe(true);
    }
  });
});

// An explored run's scheduling points on the real Redis: a duplicate of a gated connection (a
// lock module's adapter gets one) stops at the gate too, past its own log-in and name; each
// call of a lock's adapter is a point of its own, naming the key where the lock lives, and a
// grant stops once more right after; nothing goes before the gate lets it.
import { afterAll, describe, expect, it } from 'vitest';
import type { StepAt } from '@racelab/shared';
import { freshPrefix, testRedis } from '../testing/testRedis.js';
import type { LockAdapter } from '../locks/lockAdapter.js';
import { gateLock, gateRedis, grantedPoint } from './scheduledStores.js';

const plain = testRedis();
afterAll(() => plain.disconnect());

/** A gate that records each step and holds it until `open` lets the steps so far go. */
function recordingGate(): { steps: StepAt[]; gate: (step: StepAt) => Promise<void>; open(): void } {
  const steps: StepAt[] = [];
  const held: Array<() => void> = [];
  return {
    steps,
    gate: (step) =>
      new Promise((go) => {
        steps.push(step);
        held.push(go);
      }),
    open: () => held.splice(0).forEach((go) => go()),
  };
}

describe('scheduling points', () => {
  it("gates a duplicate's commands, not its connection's set-up, and holds each until let go", async () => {
    const prefix = freshPrefix();
    const redis = testRedis();
    const { steps, gate, open } = recordingGate();
    gateRedis(redis, prefix, gate);
    const copy = redis.duplicate({ keyPrefix: prefix, connectionName: 'scheduled-test' });
    try {
      const set = copy.set('lock', 'worker-1', 'PX', 60_000, 'NX');
      await expect.poll(() => steps).toEqual([{ kind: 'redis', command: 'SET', keys: ['lock'] }]);
      // Held at the gate: Redis has nothing yet.
      expect(await plain.get(`${prefix}lock`)).toBeNull();
      open();
      expect(await set).toBe('OK');
      expect(await plain.get(`${prefix}lock`)).toBe('worker-1');
    } finally {
      open();
      await plain.del(`${prefix}lock`);
      copy.disconnect();
      redis.disconnect();
    }
  });

  it("makes each call of a lock's adapter a point that names where the lock lives, and keeps what the adapter gives", async () => {
    const { steps, gate, open } = recordingGate();
    const calls: string[] = [];
    const adapter: LockAdapter<{ key: string }> = {
      acquire: async (key) => (calls.push(`acquire ${key}`), { key }),
      release: async (handle) => void calls.push(`release ${handle.key}`),
      extend: async (handle, ttlMs) => void calls.push(`extend ${handle.key} ${ttlMs}`),
      fence: () => 7,
    };
    const lock = gateLock(adapter, gate, (key) => `lib:${key}`);
    const taken = lock.acquire('lock', 1000);
    await expect.poll(() => steps).toHaveLength(1);
    expect(calls).toEqual([]); // not called before the gate lets it
    open();
    // A grant stops once more, right after: the trace then says whose grant it was.
    await expect.poll(() => steps).toHaveLength(2);
    expect(calls).toEqual(['acquire lock']);
    open();
    const handle = (await taken)!;
    expect(lock.fence?.(handle)).toBe(7);
    const extended = lock.extend!(handle, 500);
    await expect.poll(() => steps).toHaveLength(3);
    open();
    await extended;
    const released = lock.release(handle);
    await expect.poll(() => steps).toHaveLength(4);
    open();
    await released;
    expect(steps).toEqual([
      { kind: 'lock', call: 'acquire', key: 'lib:lock' },
      { kind: 'checkpoint', name: grantedPoint('lib:lock') },
      { kind: 'lock', call: 'extend', key: 'lib:lock' },
      { kind: 'lock', call: 'release', key: 'lib:lock' },
    ]);
    expect(calls).toEqual(['acquire lock', 'extend lock 500', 'release lock']);
    expect(lock.value).toBeUndefined(); // the adapter gives none: neither does its gated form
  });
});

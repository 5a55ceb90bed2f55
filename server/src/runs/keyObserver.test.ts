// The key observer against the real Redis: a lease counting down is reported once, and a
// renewal to the same length is reported too (what a watchdog does), as is the key's end and,
// where Redis notifies, how it went (a DEL, an expiry); a lock kept as a hash is reported by
// its fields.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DEFAULT_REDIS_URL } from '../services/index.js';
import { freshPrefix, testRedis } from '../testing/testRedis.js';
import { KeyObserver, type KeyObservation } from './keyObserver.js';
import { KeyspaceEvents } from './keyspaceEvents.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

/**
 * Watches `lock` under `prefix` (a fresh one by default; sampling only unless given
 * notifications) and collects what it reports, and the keys it calls gone.
 */
function observe(
  notifications: KeyspaceEvents | null = null,
  prefix = freshPrefix(),
): { prefix: string; seen: KeyObservation[]; gone: string[]; observer: KeyObserver } {
  const seen: KeyObservation[] = [];
  const gone: string[] = [];
  const observer = new KeyObserver(
    redis,
    prefix,
    ['lock'],
    (o) => seen.push(o),
    (error) => {
      throw error;
    },
    notifications,
    (key) => gone.push(key),
  );
  return { prefix, seen, gone, observer };
}

describe('key observer', () => {
  it('reports a lease once while it counts down, and again when it is gone', async () => {
    const { prefix, seen, observer } = observe();
    await redis.set(`${prefix}lock`, 'worker-1', 'PX', 300);
    await sleep(500);
    await observer.stop();
    expect(seen.map((o) => o.value)).toEqual(['worker-1', null]);
    // Each sample carries Redis's own clock of the read, in µs since the epoch.
    const [set, gone] = seen.map((o) => o.redisTimeUs!);
    expect(set).toBeGreaterThan(Date.UTC(2020, 0) * 1000);
    expect(gone).toBeGreaterThan(set!);
  });

  it('reports a renewal to the same length, as a watchdog makes it', async () => {
    const { prefix, seen, observer } = observe();
    await redis.set(`${prefix}lock`, 'worker-1', 'PX', 1000);
    for (let i = 0; i < 3; i++) {
      await sleep(200);
      await redis.pexpire(`${prefix}lock`, 1000);
    }
    await sleep(100);
    await redis.del(`${prefix}lock`);
    await sleep(50);
    await observer.stop();
    // Set, renewed three times, deleted: the countdown in between is not news.
    expect(seen.map((o) => o.value)).toEqual(['worker-1', 'worker-1', 'worker-1', 'worker-1', null]);
  });

  it('reports a lock kept as a hash by its fields, as ioredfour keeps its index', async () => {
    const { prefix, seen, observer } = observe();
    // In one transaction, as its script does: no sample sees the hash without its expiry.
    await redis.multi().hset(`${prefix}lock`, 'index', '7').pexpire(`${prefix}lock`, 300).exec();
    await sleep(500);
    await observer.stop();
    expect(seen.map((o) => o.value)).toEqual(['{index: 7}', null]);
    expect(seen[0]!.pttlMs).toBeGreaterThan(0);
  });

  it('calls a key gone when Redis says it was deleted, though no sample ever saw its value', async () => {
    // A key's whole life in one transaction: as on a server starved for as long as a lease lives.
    const events = await KeyspaceEvents.open(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, redis, () => undefined);
    expect(events).not.toBeNull(); // this Redis notifies (the run's CI Redis does)
    // Under the prefix the notifications are subscribed for.
    const { prefix, seen, gone, observer } = observe(events, `racelab:keyobserver-test-${randomUUID()}:`);
    try {
      await sleep(50); // sampling, and subscribed
      await redis.multi().set(`${prefix}lock`, 'worker-1').del(`${prefix}lock`).exec();
      await expect.poll(() => gone, { timeout: 5000 }).toEqual(['lock']);
      expect(seen.map((o) => o.value)).toEqual([]); // never seen with a value
    } finally {
      await observer.stop();
      events!.close();
    }
  });

  it('says how a key went, as Redis told: deleted by a DEL, or run out', async () => {
    const events = await KeyspaceEvents.open(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, redis, () => undefined);
    expect(events).not.toBeNull();
    const { prefix, seen, observer } = observe(events, `racelab:keyobserver-test-${randomUUID()}:`);
    const last = (): KeyObservation | undefined => seen.at(-1);
    try {
      await sleep(50); // sampling, and subscribed
      await redis.set(`${prefix}lock`, 'worker-1', 'PX', 60_000);
      await expect.poll(() => last()?.value, { timeout: 5000 }).toBe('worker-1');
      await redis.del(`${prefix}lock`);
      await expect.poll(() => last()?.gone, { timeout: 5000 }).toBe('deleted');
      await redis.set(`${prefix}lock`, 'worker-2', 'PX', 60_000);
      await expect.poll(() => last()?.value, { timeout: 5000 }).toBe('worker-2');
      await redis.pexpire(`${prefix}lock`, 1); // runs out on Redis's clock, as an explored run's fault has it
      await expect.poll(() => last()?.gone, { timeout: 5000 }).toBe('expired');
      // Every observation of the key gone carries no value; those with a cause say the one Redis gave.
      expect(seen.filter((o) => o.gone !== undefined).map((o) => [o.value, o.gone])).toEqual([
        [null, 'deleted'],
        [null, 'expired'],
      ]);
    } finally {
      await observer.stop();
      events!.close();
    }
  });
});

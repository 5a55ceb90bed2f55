// extend against the real Redis: a new lease for the holder only.
import { afterAll, describe, expect, it } from 'vitest';
import { acquire } from './acquire.js';
import { extend } from './extend.js';
import { freshPrefix, testRedis } from './testRedis.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

describe('extend', () => {
  it('renews the lease of a lock it holds', async () => {
    const lock = (await acquire(redis, `${freshPrefix()}lock`, { ttlMs: 1000 }))!;
    expect(await extend(redis, lock, 60_000)).toBe(true);
    expect(await redis.pttl(lock.key)).toBeGreaterThan(50_000);
  });

  it("renews by the lock's own lease when none is given", async () => {
    const lock = (await acquire(redis, `${freshPrefix()}lock`, { ttlMs: 20_000 }))!;
    await redis.pexpire(lock.key, 100);
    expect(await extend(redis, lock)).toBe(true);
    expect(await redis.pttl(lock.key)).toBeGreaterThan(15_000);
  });

  it("does not extend another holder's lock", async () => {
    const key = `${freshPrefix()}lock`;
    await redis.set(key, 'someone-else', 'PX', 1000);
    expect(await extend(redis, { key, token: 'mine', ttlMs: 60_000 })).toBe(false);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(1000);
  });
});

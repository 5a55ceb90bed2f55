// acquire against the real Redis: one holder at a time, and the lease is what Redis holds.
import { afterAll, describe, expect, it } from 'vitest';
import { acquire } from './acquire.js';
import { freshPrefix, testRedis } from './testRedis.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

describe('acquire', () => {
  it('takes a free lock with a random token and the lease asked for', async () => {
    const key = `${freshPrefix()}lock`;
    const lock = await acquire(redis, key, { ttlMs: 5000 });
    expect(lock).toMatchObject({ key, ttlMs: 5000 });
    expect(await redis.get(key)).toBe(lock!.token);
    const pttl = await redis.pttl(key);
    expect(pttl).toBeGreaterThan(4000);
    expect(pttl).toBeLessThanOrEqual(5000);
  });

  it('refuses a lock another holds, and leaves it alone', async () => {
    const key = `${freshPrefix()}lock`;
    const first = await acquire(redis, key, { ttlMs: 5000, token: 'first' });
    expect(first?.token).toBe('first');
    expect(await acquire(redis, key, { ttlMs: 5000, token: 'second' })).toBeNull();
    expect(await redis.get(key)).toBe('first');
  });

  it('gives exactly one of 50 concurrent contenders the lock', async () => {
    const key = `${freshPrefix()}lock`;
    const results = await Promise.all(Array.from({ length: 50 }, () => acquire(redis, key, { ttlMs: 5000 })));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('never gives two acquisitions the same token', async () => {
    const prefix = freshPrefix();
    const locks = await Promise.all(Array.from({ length: 20 }, (_, i) => acquire(redis, `${prefix}${i}`, { ttlMs: 5000 })));
    expect(new Set(locks.map((l) => l!.token)).size).toBe(20);
  });
});

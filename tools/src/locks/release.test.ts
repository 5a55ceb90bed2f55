// release against the real Redis: compare-and-delete deletes only the releaser's own lock.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { acquire } from './acquire.js';
import { release } from './release.js';
import { RELEASE_SCRIPT } from './releaseScript.js';
import { freshPrefix, PrivateRedis, testRedis } from './testRedis.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

describe('release', () => {
  it('deletes a lock it holds, and the lock can be taken again', async () => {
    const key = `${freshPrefix()}lock`;
    const lock = (await acquire(redis, key, { ttlMs: 5000 }))!;
    expect(await release(redis, lock)).toBe(true);
    expect(await redis.exists(key)).toBe(0);
    expect(await acquire(redis, key, { ttlMs: 5000 })).not.toBeNull();
  });

  it("never deletes another holder's lock", async () => {
    const key = `${freshPrefix()}lock`;
    await redis.set(key, 'someone-else', 'PX', 5000);
    expect(await release(redis, { key, token: 'mine', ttlMs: 5000 })).toBe(false);
    expect(await redis.get(key)).toBe('someone-else');
  });

  it('says false when released twice', async () => {
    const lock = (await acquire(redis, `${freshPrefix()}lock`, { ttlMs: 5000 }))!;
    expect(await release(redis, lock)).toBe(true);
    expect(await release(redis, lock)).toBe(false);
  });

  it('loads its script when this Redis does not have it yet (NOSCRIPT)', async () => {
    // A private redis-server starts with an empty script cache; the shared one is left alone.
    const server = await PrivateRedis.start();
    const own = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      const cached = async () => ((await own.script('EXISTS', RELEASE_SCRIPT.sha1)) as number[])[0];
      const lock = (await acquire(own, 'lock', { ttlMs: 5000 }))!;
      expect(await cached()).toBe(0);
      expect(await release(own, lock)).toBe(true);
      expect(await cached()).toBe(1);
    } finally {
      own.disconnect();
      await server.crash();
    }
  });
});

// A lock is a lease: these tests lose one for real and check that release and extend say
// so, and never touch the next holder's lock. Once by a lease that runs out while the
// holder is still working; once by a crash of a private redis-server that comes back empty.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquire } from './acquire.js';
import { extend } from './extend.js';
import { release } from './release.js';
import { freshPrefix, PrivateRedis, testRedis } from './testRedis.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

describe('a lock lost to its lease', () => {
  it('passes to the next holder, and the late holder can neither extend nor release it', async () => {
    const key = `${freshPrefix()}lock`;
    const late = (await acquire(redis, key, { ttlMs: 80 }))!;
    await sleep(150); // the holder "works" past its lease
    expect(await redis.exists(key)).toBe(0);
    const next = (await acquire(redis, key, { ttlMs: 5000 }))!;
    expect(next).not.toBeNull();
    expect(await extend(redis, late, 5000)).toBe(false);
    expect(await release(redis, late)).toBe(false);
    expect(await redis.get(key)).toBe(next.token);
    expect(await release(redis, next)).toBe(true);
  });
});

describe('a lock lost with its Redis', () => {
  let server: PrivateRedis | undefined;
  const clients: Redis[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await server?.crash();
  });

  it('fails while Redis is down, then is gone: another takes it, the first holder learns it lost it', async () => {
    server = await PrivateRedis.start();
    const holder = new Redis(server.url, { maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    holder.on('error', () => undefined);
    clients.push(holder);
    const key = 'job:lock';
    const lock = (await acquire(holder, key, { ttlMs: 60_000 }))!;
    expect(lock).not.toBeNull();

    await server.crash();
    // The holder cannot learn whether it still holds the lock: the call fails, it must not go on as if it did.
    await expect(extend(holder, lock)).rejects.toThrow();

    await server.restart(); // no persistence: the lock is gone long before its 60 s lease
    const other = new Redis(server.url, { maxRetriesPerRequest: 1 });
    clients.push(other);
    const taken = await acquire(other, key, { ttlMs: 60_000 });
    expect(taken).not.toBeNull();

    await waitUntilReady(holder);
    expect(await extend(holder, lock)).toBe(false);
    expect(await release(holder, lock)).toBe(false);
    expect(await other.get(key)).toBe(taken!.token);
  });
});

async function waitUntilReady(client: Redis): Promise<void> {
  for (let i = 0; i < 200 && client.status !== 'ready'; i++) await sleep(25);
  expect(client.status).toBe('ready');
}

// Each library adapter against the real Redis and PostgreSQL: one holder at a time, a
// release lets the next in, a lock with a TTL expires on its own, and a lock with a fence
// gives the next holder a higher one, whose lock the older holder's release leaves alone.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import type { LockAdapter } from './lockAdapter.js';
import { LIBRARY_LOCKS } from './lockModules.js';

const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const opened: { lock: LockAdapter; redis: Redis }[] = [];

async function open(module: (typeof LIBRARY_LOCKS)[number], keyPrefix: string) {
  const redis = new Redis(redisUrl, { keyPrefix });
  const lock = await module.create({ redis, nodes: [redis], keyPrefix, redisUrl, databaseUrl });
  opened.push({ lock, redis });
  return lock;
}

afterAll(async () => {
  for (const { lock, redis } of opened) {
    await lock.close?.();
    redis.disconnect();
  }
});

describe.each(LIBRARY_LOCKS.map((m) => [m.name, m] as const))('%s', (_name, module) => {
  it('grants one holder at a time; a release lets the next in', async () => {
    const prefix = `racelab-test:${randomUUID().slice(0, 8)}:`;
    const [a, b] = [await open(module, prefix), await open(module, prefix)];
    const first = await a.acquire('lock:x', 5000);
    expect(first).not.toBeNull();
    expect(await b.acquire('lock:x', 5000)).toBeNull();
    await a.release(first);
    const second = await b.acquire('lock:x', 5000);
    expect(second).not.toBeNull();
    await b.release(second);
  });
});

describe.each(LIBRARY_LOCKS.filter((m) => m.redisKey('lock') !== null).map((m) => [m.name, m] as const))(
  '%s, a lock with a TTL',
  (_name, module) => {
    it('expires on its own, or on release when it renews itself, and the next holder gets in', async () => {
      const prefix = `racelab-test:${randomUUID().slice(0, 8)}:`;
      const [a, b] = [await open(module, prefix), await open(module, prefix)];
      const held = await a.acquire('lock:y', 300);
      expect(held).not.toBeNull();
      // The lock is a key with an expiry, where the library says it keeps it.
      const raw = new Redis(redisUrl);
      expect(await raw.pttl(prefix + module.redisKey('lock:y')!)).toBeGreaterThan(0);
      raw.disconnect();
      // A renewing lock is renewed by its holder's timer: it must be released to stop; the
      // others are left to expire. Either way, after the wait the next holder gets in.
      if (module.renews) await a.release(held);
      else await sleep(600);
      const next = await b.acquire('lock:y', 5000);
      expect(next).not.toBeNull();
      await b.release(next);
    });
  },
);

describe.each(LIBRARY_LOCKS.filter((m) => m.fences).map((m) => [m.name, m] as const))('%s, a lock with a fence', (_name, module) => {
  it('gives the grant after an expiry a higher fence, and the older holder cannot release it', async () => {
    const prefix = `racelab-test:${randomUUID().slice(0, 8)}:`;
    const [a, b] = [await open(module, prefix), await open(module, prefix)];
    const first = await a.acquire('lock:f', 200);
    expect(first).not.toBeNull();
    await sleep(400); // the first lease expires, never released
    const second = await b.acquire('lock:f', 5000);
    expect(second).not.toBeNull();
    expect(b.fence!(second)).toBeGreaterThan(a.fence!(first));
    // The stale holder's release comes late: the newer grant still holds the lock.
    await a.release(first);
    expect(await a.acquire('lock:f', 5000)).toBeNull();
    await b.release(second);
  });
});

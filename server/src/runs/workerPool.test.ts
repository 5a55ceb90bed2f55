// The worker pool against the real Redis and PostgreSQL: a run takes warm processes, and
// one that starts while the pool is still forking replacements waits for them instead of
// playing beside processes starting up (or forking more of its own).
import { afterEach, describe, expect, it } from 'vitest';
import { LOST_STORE_EXIT_CODES } from '@racelab/shared';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { startPrivateRedis } from '../testing/privateRedis.js';
import { WorkerPool } from './workerPool.js';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const open = (size: number, redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL) =>
  new WorkerPool({
    redisUrl,
    databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    size,
  });

async function warm(p: WorkerPool, count: number): Promise<void> {
  for (let i = 0; i < 3000 && p.idleCount < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(p.idleCount).toBe(count);
}

describe('the worker pool', () => {
  it('hands out its warm processes, and refills only when told', async () => {
    pool = open(2);
    await warm(pool, 2);
    const taken = await pool.take(2);
    expect(taken.map((c) => c.connected)).toEqual([true, true]);
    expect(pool.idleCount).toBe(0);
    expect(pool.size).toBe(2); // nothing forked behind the run's back
    for (const child of taken) child.kill('SIGKILL');
  });

  it('a run taken while replacements are being forked gets those, once they are ready', async () => {
    pool = open(2);
    await warm(pool, 2);
    const first = await pool.take(2);
    pool.replenish(); // two replacements on their way
    expect(pool.size).toBe(4);
    expect(pool.idleCount).toBe(0);
    const second = await pool.take(2);
    // The replacements, not two more forks of its own: 2 + 2 processes, none idle.
    expect(pool.size).toBe(4);
    expect(pool.idleCount).toBe(0);
    expect(second.map((c) => c.connected)).toEqual([true, true]);
    expect(second.some((c) => first.includes(c))).toBe(false);
    for (const child of [...first, ...second]) child.kill('SIGKILL');
  });

  it('forks no replacements for workers lent to an explored run, and forks one once a lent worker is gone', async () => {
    pool = open(2);
    await warm(pool, 2);
    const lent = await pool.take(2, { lend: true });
    pool.replenish(); // they may come back: nothing to replace yet
    expect(pool.size).toBe(2);
    expect(pool.idleCount).toBe(0);
    const gone = new Promise((resolve) => lent[0]!.once('exit', resolve));
    lent[0]!.kill('SIGKILL'); // killed in its run: never given back
    await gone;
    expect(pool.keep(lent[0]!)).toBe(false);
    pool.replenish();
    await warm(pool, 1);
    expect(pool.size).toBe(2);
    lent[1]!.kill('SIGKILL');
  });

  // A run's plan may still be on its way when Redis goes: the worker has no part to end with
  // a message, so its exit code is what tells the run why it went.
  it('a worker taken for a run whose Redis goes before its plan arrives exits with the code that says so', async () => {
    const redis = await startPrivateRedis();
    try {
      pool = open(1, redis.url);
      await warm(pool, 1);
      const [child] = await pool.take(1);
      const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
      redis.kill();
      expect(await exited).toBe(LOST_STORE_EXIT_CODES.Redis);
    } finally {
      await redis.stop();
    }
  });
});

// A Redis that freezes (SIGSTOP of redis-server) closes no connection and answers no
// command: without a watch, a run would wait for its deadline. The playground notices the
// silence and ends the run with the reason; once Redis answers again, the next run plays.
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { startPrivateRedis, type PrivateRedis } from '../testing/privateRedis.js';
import { play } from '../testing/testPlayground.js';
import { leftovers } from '../testing/wsClient.js';
import { Playground } from './playground.js';
import { SERVER_REDIS_COMMAND_TIMEOUT_MS } from './serverConnections.js';
import { StoreWatch } from './storeWatch.js';

let redis: PrivateRedis;
let playground: Playground;
let redisPid: number;
beforeAll(async () => {
  redis = await startPrivateRedis();
  playground = await Playground.open({ redisUrl: redis.url, databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, poolSize: 2 });
  const probe = new Redis(redis.url);
  redisPid = Number(/process_id:(\d+)/.exec(await probe.info('server'))![1]);
  probe.disconnect();
});
afterAll(async () => {
  process.kill(redisPid, 'SIGCONT');
  await playground?.close();
  await redis?.stop();
});

describe('a frozen Redis', () => {
  it('ends the run going with the reason, soon, and the next run plays once it answers again', async () => {
    const prepared = playground.prepare({ scenario: 'duplicate-job', variant: 'token-lua', params: { workMs: 10_000 } });
    if (!prepared.ok) throw new Error(prepared.error);
    const { run } = prepared;
    let stoppedAt = 0;
    let failedAt = 0;
    const failed = new Promise<void>((resolve) =>
      run.onEvent((e) => {
        if (e.type === 'work-started' && stoppedAt === 0) {
          stoppedAt = performance.now();
          process.kill(redisPid, 'SIGSTOP');
        }
        if (e.type === 'run-failed') {
          failedAt = performance.now();
          resolve();
        }
      }),
    );
    const outcome = run.start();
    await failed;
    const took = failedAt - stoppedAt;
    console.log(`frozen Redis: run-failed ${Math.round(took)} ms after SIGSTOP`);
    // The watch, not the run's deadline (15 s and more): well within 5 s even on a busy machine.
    expect(took).toBeLessThan(5000);
    process.kill(redisPid, 'SIGCONT');
    expect(await outcome).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^Redis has not answered for \d+\.\d s \(stopped or frozen\)/),
    });

    const next = await play(playground, 'duplicate-job', 'token-lua');
    expect(next.verdict).toBe('pass');
    // The frozen run's schema goes with it; its keys, left registered, go with the sweep that
    // follows once Redis answers again and the run has settled.
    await run.settled;
    await expect.poll(() => leftovers(playground.redis, playground.pg, run.id), { timeout: 30_000 }).toEqual({ keys: [], schema: false });
  }, 120_000);
});

describe("the server's own Redis connection", () => {
  it(`fails a command to a frozen Redis in words after ${SERVER_REDIS_COMMAND_TIMEOUT_MS} ms instead of waiting for ever`, async () => {
    process.kill(redisPid, 'SIGSTOP');
    try {
      await expect(playground.redis.get('racelab:no-such-key')).rejects.toThrow(/Command timed out/);
    } finally {
      process.kill(redisPid, 'SIGCONT');
    }
    // And the connection serves again once Redis answers.
    expect(await playground.redis.ping()).toBe('PONG');
  }, 30_000);
});

describe('a server that did not get the CPU for a while', () => {
  it('reads the answers that came meanwhile before it calls a store silent', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 1 });
    await Promise.all([redis.ping(), pool.query('select 1')]); // connected before the watch starts
    let pings = 0;
    // The real Redis, pinged as the watch pings it; but on the first ping (while the watch's
    // PostgreSQL connection is still being opened, which takes several round trips) and on the
    // fourth, this process stops for 600 ms right after sending it (at the end of a turn of its
    // event loop, as on a machine whose cores are taken): the stores answer at once, and the
    // answers wait in the sockets while the watch's next tick comes due.
    const stalling = {
      ping: () =>
        new Promise<string>((resolve, reject) =>
          setImmediate(() => {
            redis.ping().then(resolve, reject);
            if (++pings === 1 || pings === 4) spin(600);
          }),
        ),
    } as unknown as Redis;
    const silent: string[] = [];
    const watch = new StoreWatch({
      redis: stalling,
      pg: pool,
      silentMs: 300,
      everyMs: 20,
      busy: () => true,
      onSilent: (r) => silent.push(r),
    });
    try {
      // Three pings past the last stall, however slowly a busy machine ticks: each came after a silence was due.
      while (pings < 7) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(silent).toEqual([]);
    } finally {
      await watch.stop();
      redis.disconnect();
      await pool.end();
    }
  });
});

/** Keeps this process's event loop busy for `ms`. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

// The next run's connection, made between runs, against the real PostgreSQL and Redis: a
// run adopts it (renamed for the run, its search_path on the run's schema), a spare whose
// backend went while it waited is never handed out, and one that turns out dead when the
// run adopts it is replaced by a fresh connection.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { createRunStores } from './runStores.js';
import { SpareConnection } from './spareConnection.js';

const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
let redis: Redis;
let pool: pg.Pool;

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
});
afterAll(async () => {
  redis.disconnect();
  await pool.end();
});

async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`waited 10 s for ${what}`);
}

/** A spare of its own name (other tests' servers have spares too), connected. */
async function readySpare(): Promise<{ spare: SpareConnection; name: string }> {
  const name = `racelab-test spare ${randomBytes(4).toString('hex')}`;
  const spare = new SpareConnection({ connectionString: databaseUrl }, name);
  spare.refill();
  await until('the spare to connect', () => spare.state === 'ready');
  return { spare, name };
}

const backendsNamed = async (name: string) =>
  (await pool.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name])).rows.map((r) => r.pid);

async function terminate(name: string): Promise<void> {
  const [pid] = await backendsNamed(name);
  expect(pid).toBeDefined();
  await pool.query('select pg_terminate_backend($1)', [pid]);
  await until('the backend to go', async () => (await backendsNamed(name)).length === 0);
}

const newRunId = () => randomBytes(6).toString('hex');

describe('the spare connection', () => {
  it('becomes the run’s own: named for the run, on the run’s schema', async () => {
    const { spare, name } = await readySpare();
    const [pid] = await backendsNamed(name);
    const runId = newRunId();
    const stores = await createRunStores(redis, pool, runId, { databaseUrl, spare: spare.take(), onLost: () => undefined });
    try {
      expect(await backendsNamed(`racelab-server run_${runId}`)).toEqual([pid]);
      expect((await stores.sql('show search_path')).rows[0]).toEqual({ search_path: `run_${runId}` });
      expect(spare.state).toBe('none'); // taken once; the next comes with refill()
      expect(spare.take()).toBeNull();
    } finally {
      await stores.cleanup();
      await spare.close();
    }
    await until('the run’s backend to go', async () => (await backendsNamed(`racelab-server run_${runId}`)).length === 0);
  });

  it('is not handed out once its backend has gone while it waited', async () => {
    const { spare, name } = await readySpare();
    await terminate(name);
    await until('the spare to notice', () => spare.state === 'none');
    expect(spare.take()).toBeNull();
    spare.refill(); // the next one
    await until('a new spare', () => spare.state === 'ready');
    expect(await backendsNamed(name)).toHaveLength(1);
    await spare.close();
    await until('the spare’s backend to go', async () => (await backendsNamed(name)).length === 0);
  });

  it('dead when adopted: the run connects its own instead, and hears of no loss', async () => {
    const { spare, name } = await readySpare();
    const client = spare.take()!;
    // Its backend goes between the take and the run's first query.
    client.on('error', () => undefined);
    const ended = new Promise((resolve) => client.once('end', resolve));
    await terminate(name);
    await ended;
    client.removeAllListeners('error');
    const lost: Error[] = [];
    const runId = newRunId();
    const stores = await createRunStores(redis, pool, runId, { databaseUrl, spare: client, onLost: (error) => lost.push(error) });
    try {
      expect((await stores.sql('show search_path')).rows[0]).toEqual({ search_path: `run_${runId}` });
      expect(await backendsNamed(`racelab-server run_${runId}`)).toHaveLength(1);
      expect(lost).toEqual([]);
    } finally {
      await stores.cleanup();
      await spare.close();
    }
  });
});

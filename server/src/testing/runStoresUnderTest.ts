// A run's own stores on this machine's Redis and PostgreSQL (REDIS_URL and DATABASE_URL when
// set), for a test of what a scenario kit keeps there: a fresh schema and key prefix, with
// connections of its own. `close` drops the schema and the keys, then the connections.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createRunStores, type OwnedRunStores } from '../runs/runStores.js';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';

export interface RunStoresUnderTest {
  stores: OwnedRunStores;
  close(): Promise<void>;
}

export async function openRunStoresUnderTest(): Promise<RunStoresUnderTest> {
  const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const stores = await createRunStores(redis, pool, randomBytes(6).toString('hex'), { databaseUrl, onLost: () => undefined });
  return {
    stores,
    close: async () => {
      await stores.cleanup();
      redis.disconnect();
      await pool.end();
    },
  };
}

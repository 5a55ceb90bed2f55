// npm run clean: removes what racelab processes that no longer run left behind — run
// schemas and Redis keys, stopped or orphaned worker and lab processes, the embedded
// stores' scratch folders — from REDIS_URL / DATABASE_URL or the local defaults. The
// server does the same at every start; this is for a machine that will not start it again.
import { Redis } from 'ioredis';
import pg from 'pg';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, redactUrl } from './services/index.js';
import { reapOwnedProcesses } from './debris/ownedProcesses.js';
import { ensureRegistry } from './debris/runRegistry.js';
import { sweepDebris, sweptWords } from './debris/sweep.js';

const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
redis.on('error', () => undefined); // reported below, once
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, connectionTimeoutMillis: 3000 });
pool.on('error', () => undefined);

try {
  await Promise.all([redis.connect(), pool.query('select 1')]);
} catch (error) {
  // Without the stores, at least the processes: they are what a crash leaves running.
  const processes = await reapOwnedProcesses();
  console.error(
    `racelab clean: could not reach Redis at ${redactUrl(redisUrl)} and PostgreSQL at ${redactUrl(databaseUrl)} (${(error as Error).message}); ` +
      `stopped ${processes.length} leftover processes only`,
  );
  redis.disconnect();
  await pool.end();
  process.exit(1);
}
await ensureRegistry(pool);
const words = sweptWords(await sweepDebris(redis, pool));
console.log(`racelab clean: ${words ?? 'nothing left behind'}`);
redis.disconnect();
await pool.end();

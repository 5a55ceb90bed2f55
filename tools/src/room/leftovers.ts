// What the room's runs left in the stores once they settled: Redis keys under a run's prefix
// and its ACL user, PostgreSQL schemas and roles named after a run. Asked about the room's own
// runs only: other runs on the same stores (another server, a test) are none of its business.
import { Redis } from 'ioredis';
import pg from 'pg';

export interface Leftovers {
  keys: number;
  aclUsers: number;
  schemas: number;
  roles: number;
}

/** Counts what is left of `runIds` in the stores, polling until none is left or `withinMs` passes (runs clean up after their end). */
export async function storesLeftovers(
  runIds: string[],
  stores: { redisUrl: string; databaseUrl: string },
  withinMs = 30_000,
): Promise<Leftovers> {
  const redis = new Redis(stores.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const pool = new pg.Pool({ connectionString: stores.databaseUrl, max: 1 });
  try {
    await redis.connect();
    const deadline = Date.now() + withinMs;
    for (;;) {
      const left = await count(runIds, redis, pool);
      if (left.keys + left.aclUsers + left.schemas + left.roles === 0 || Date.now() > deadline) return left;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    redis.disconnect();
    await pool.end();
  }
}

async function count(runIds: string[], redis: Redis, pool: pg.Pool): Promise<Leftovers> {
  const ours = new Set(runIds);
  let keys = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', 'racelab:*', 'COUNT', 1000);
    keys += found.filter((key) => ours.has(key.split(':')[1] ?? '')).length;
    cursor = next;
  } while (cursor !== '0');
  const users = ((await redis.call('ACL', 'USERS').catch(() => [])) as string[]).filter((u) => ours.has(runOf(u, 'racelab_run_')));
  const schemas = await pool.query<{ name: string }>("select nspname as name from pg_namespace where nspname like 'run\\_%'");
  const roles = await pool.query<{ name: string }>("select rolname as name from pg_roles where rolname like 'racelab\\_run\\_%'");
  return {
    keys,
    aclUsers: users.length,
    schemas: schemas.rows.filter((r) => ours.has(runOf(r.name, 'run_'))).length,
    roles: roles.rows.filter((r) => ours.has(runOf(r.name, 'racelab_run_'))).length,
  };
}

function runOf(name: string, prefix: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : '';
}

// One run's slice of the stores: a Redis key prefix and a PostgreSQL schema of its own,
// so runs side by side never see each other's data; dropped when the run ends.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { RunStores } from '../scenarios/types.js';

export interface OwnedRunStores extends RunStores {
  keyPrefix: string;
  schema: string;
  /** Deletes the run's keys and drops its schema. */
  cleanup(): Promise<void>;
}

/** Creates the run's schema and returns its stores; run ids are [a-f0-9] only. */
export async function createRunStores(redis: Redis, pool: pg.Pool, runId: string): Promise<OwnedRunStores> {
  if (!/^[a-f0-9]+$/.test(runId)) throw new Error(`bad run id ${runId}`);
  const schema = `run_${runId}`;
  const keyPrefix = `racelab:${runId}:`;
  await pool.query(`create schema ${schema}`);

  return {
    redis,
    keyPrefix,
    schema,
    key: (name) => keyPrefix + name,
    async sql(text, values) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`set local search_path to ${schema}`);
        const result = await client.query(text, values);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async cleanup() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await pool.query(`drop schema if exists ${schema} cascade`);
    },
  };
}

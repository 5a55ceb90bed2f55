// Grants seen on a lab's own Redis node are timed by the node's TIME; a node whose wall clock
// a lab has moved (the wall clock shim) is timed back by its offset, so its grant stands on
// the host's clock beside PostgreSQL's writes, not seconds ahead of them.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWallClockShim } from '../../labnet/wallClockShim.js';
import { writeClockOffsetMs } from '../../labnet/clockFile.js';
import { createMovableClock, type MovableClock } from '../../labnet/movableClock.js';
import { createRunStores, type OwnedRunStores } from '../../runs/runStores.js';
import { startEmbeddedRedis } from '../../services/embeddedRedis.js';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../../services/index.js';
import type { StartedService } from '../../services/startedService.js';
import { createFencedLedger } from './fencedLedger.js';
import { watchNodeGrants } from './nodeGrants.js';

const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
let redis: Redis;
let pool: pg.Pool;
let stores: OwnedRunStores;
let clock: MovableClock;
let node: StartedService;
let client: Redis;

beforeAll(async () => {
  redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  stores = await createRunStores(redis, pool, randomBytes(6).toString('hex'), { databaseUrl, onLost: () => undefined });
  await stores.sql('create table documents (id int primary key, writer text not null, fence int not null)');
  await createFencedLedger(stores, 'documents');
  const shim = buildWallClockShim();
  if ('why' in shim) throw new Error(`no shim: ${shim.why}`);
  clock = await createMovableClock(shim.library);
  node = await startEmbeddedRedis({ env: clock.env });
  client = new Redis(node.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  client?.disconnect();
  await node?.stop();
  await clock?.close();
  await stores?.cleanup();
  redis?.disconnect();
  await pool?.end();
});

describe('a grant on a node whose clock is 5 s ahead', () => {
  it('is timed on the host’s clock: between the host’s reads before the SET and after the record', async () => {
    writeClockOffsetMs(clock.file, 5000);
    const grants = watchNodeGrants(stores, [{ client, dead: () => false, clockOffsetMs: clock.offsetMs }], 'lock', 1);
    const beforeMs = Date.now();
    await client.set('lock', 'worker-1:aa', 'PX', 60_000);
    await grants.stop(); // its last look sees the token, and every grant seen is on record
    const afterMs = Date.now();
    const { rows } = await stores.sql<{ worker: string; at_us: string }>(
      `select worker, (extract(epoch from granted_at) * 1000000)::bigint as at_us from grants`,
    );
    expect(rows.map((r) => r.worker)).toEqual(['worker-1']);
    const atMs = Number(rows[0]!.at_us) / 1000;
    // Untimed back, it would stand 5 s after the record was made.
    expect(atMs).toBeGreaterThanOrEqual(beforeMs);
    expect(atMs).toBeLessThan(afterMs + 1);
  });
});

// The fenced ledger's grants against the real PostgreSQL and Redis: each new holder the
// server sees in the lock key is one grant, at Redis's time of the read to the microsecond;
// a renewal, a key gone and another key are none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnedRunStores } from '../../runs/runStores.js';
import { openRunStoresUnderTest, type RunStoresUnderTest } from '../../testing/runStoresUnderTest.js';
import { createFencedLedger, recordGrantsOf } from './fencedLedger.js';

let under: RunStoresUnderTest;
let stores: OwnedRunStores;

beforeAll(async () => {
  under = await openRunStoresUnderTest();
  stores = under.stores;
  await stores.sql('create table documents (id int primary key, writer text not null, fence int not null)');
  await createFencedLedger(stores, 'documents');
});
afterAll(() => under.close());

describe('grants observed in the lock key', () => {
  it('logs each new holder once, at the time Redis read it', async () => {
    const record = recordGrantsOf('lock:document');
    const t0 = Date.UTC(2026, 11, 1, 8, 0, 0) * 1000 + 123_456; // µs since the epoch
    const seen = [
      { key: 'lock:document', value: 'worker-1:aa', redisTimeUs: t0 },
      { key: 'lock:document', value: 'worker-1:aa', redisTimeUs: t0 + 300_000 }, // renewed: no grant
      { key: 'fence', value: '1', redisTimeUs: t0 + 300_001 }, // another key
      { key: 'lock:document', value: null }, // expired
      { key: 'lock:document', value: 'worker-2:bb', redisTimeUs: t0 + 1_000_007 },
    ];
    // As the key observer hands them on: each with the previous observation of its key.
    const last = new Map<string, (typeof seen)[number]>();
    for (const now of seen) {
      await record(stores, now, last.get(now.key));
      last.set(now.key, now);
    }
    const { rows } = await stores.sql<{ grant_no: string; worker: string; token: string; at_us: string }>(
      `select grant_no, worker, token, (extract(epoch from granted_at) * 1000000)::bigint as at_us from grants order by grant_no`,
    );
    expect(rows.map((r) => [Number(r.grant_no), r.worker, r.token, Number(r.at_us)])).toEqual([
      [1, 'worker-1', 'worker-1:aa', t0],
      [2, 'worker-2', 'worker-2:bb', t0 + 1_000_007],
    ]);
  });
});

// "The newer holder writes first", read from the fenced ledger on the real PostgreSQL: the
// grants and the guarded row's UPDATEs in the order the stores timed them, whatever order the
// workers said them in.
import type { RunEvent } from '@racelab/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brokenAssumption } from '../../explore/assumptions.js';
import type { OwnedRunStores } from '../../runs/runStores.js';
import { openRunStoresUnderTest, type RunStoresUnderTest } from '../../testing/runStoresUnderTest.js';
import { createFencedRow, WRITES_TABLE } from './fencedLedger.js';
import { NEWER_HOLDER_WRITES_FIRST } from './scheduleAssumptions.js';

let under: RunStoresUnderTest;
let stores: OwnedRunStores;

beforeAll(async () => {
  under = await openRunStoresUnderTest();
  stores = under.stores;
  await createFencedRow(stores, 'documents', 'first draft');
});
beforeEach(async () => {
  await stores.sql(`truncate grants, ${WRITES_TABLE}`);
});
afterAll(() => under.close());

type Act = ['grant' | 'write', string];

/** Files the acts in the ledger one second apart, in this order, as Redis and PostgreSQL would have timed them. */
async function ledger(...acts: Act[]): Promise<void> {
  for (const [at, [act, worker]] of acts.entries()) {
    const time = `timestamptz '2026-12-01 08:00:00+00' + ${at} * interval '1 second'`;
    if (act === 'grant') await stores.sql(`insert into grants (worker, token, granted_at) values ($1, $1 || ':t', ${time})`, [worker]);
    else await stores.sql(`insert into ${WRITES_TABLE} (worker, accepted, at) values ($1, true, ${time})`, [worker]);
  }
}

/** What the explorer reads of the stores at the run's end, then asks of the assumption beside the run's log. */
async function broken(events: RunEvent[] = []): Promise<boolean> {
  const inStores = (await NEWER_HOLDER_WRITES_FIRST.brokenInStores?.(stores)) ? [NEWER_HOLDER_WRITES_FIRST] : [];
  return brokenAssumption([NEWER_HOLDER_WRITES_FIRST], { choices: [], trace: [], events, brokenInStores: inStores }) !== undefined;
}

/** The run's log as the workers said it: grants with their fences, then writes. */
const said = (...bodies: Array<[string, 'lease-acquired' | 'write-accepted', number]>): RunEvent[] =>
  bodies.map(([workerId, type, fence], seq) => ({
    seq,
    atMs: seq,
    workerId,
    type,
    key: 'lock',
    ttlMs: 1000,
    target: 'document',
    value: 'x',
    fence,
  }));

describe('the newer holder writes first, read from the ledger', () => {
  it('holds when the newer holder writes before the older one', async () => {
    await ledger(['grant', 'worker-1'], ['grant', 'worker-2'], ['write', 'worker-2'], ['write', 'worker-1']);
    expect(await broken()).toBe(false);
  });

  it('is broken by an older holder writing while the newer one has not, never to write', async () => {
    await ledger(['grant', 'worker-1'], ['grant', 'worker-2'], ['write', 'worker-1']);
    expect(await broken()).toBe(true);
  });

  it('is broken even where the workers said it the other way round: the stores’ order counts', async () => {
    // worker-1's write reached the row before worker-2's; worker-2 said its own first.
    await ledger(['grant', 'worker-1'], ['grant', 'worker-2'], ['write', 'worker-1'], ['write', 'worker-2']);
    const log = said(
      ['worker-1', 'lease-acquired', 1],
      ['worker-2', 'lease-acquired', 2],
      ['worker-2', 'write-accepted', 2],
      ['worker-1', 'write-accepted', 1],
    );
    expect(await broken(log)).toBe(true);
  });

  it('holds when the older holder wrote before any newer grant', async () => {
    await ledger(['grant', 'worker-1'], ['write', 'worker-1'], ['grant', 'worker-2'], ['write', 'worker-2']);
    expect(await broken()).toBe(false);
  });

  it("holds for a worker's writes under its own newest grant", async () => {
    await ledger(['grant', 'worker-1'], ['grant', 'worker-2'], ['write', 'worker-2'], ['grant', 'worker-1'], ['write', 'worker-1']);
    expect(await broken()).toBe(false);
  });
});

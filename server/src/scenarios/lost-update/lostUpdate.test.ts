// Every lost-update variant against the real PostgreSQL, at its defaults and at other
// parameters. Admins read in list order, nobody writes before every admin has read (or
// waits on the row lock), and they write in list order, so each verdict is the same on
// every run.
// The other parameters are in lostUpdate.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('lost-update');
const { run } = tested;

describe('lost-update at its defaults (stock 10, sales 3,2)', () => {
  it('read-modify-write: B read 10, A wrote 7, B wrote 8 over it', async () => {
    const { metrics, verdict, events } = await run('read-modify-write');
    expect(metrics).toEqual({ finalStock: 8, expectedStock: 5, retries: 0, refusedSales: 0 });
    expect(verdict).toBe('fail');
    const bRead = eventsOf(events, 'value-read', 'admin-2')[0]!;
    const aWrite = eventsOf(events, 'write-accepted', 'admin-1')[0]!;
    const bWrite = eventsOf(events, 'write-accepted', 'admin-2')[0]!;
    expect([bRead.value, aWrite.value, bWrite.value]).toEqual([10, 7, 8]);
    expect(bRead.atMs).toBeLessThan(aWrite.atMs);
    expect(aWrite.atMs).toBeLessThan(bWrite.atMs);
    // What PostgreSQL held, as the server sampled it: 10, then A's 7, then B's 8.
    const stock = eventsOf(events, 'row-observed')
      .filter((e) => e.target === 'stock')
      .map((e) => e.value);
    expect(stock).toEqual(['10 (v1)', '7 (v1)', '8 (v1)']);
  });

  it('atomic-update: the database subtracts from what it holds', async () => {
    const { metrics, verdict, events } = await run('atomic-update');
    expect(metrics).toEqual({ finalStock: 5, expectedStock: 5, retries: 0, refusedSales: 0 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'value-read', 'admin-2')[0]?.value).toBe(10); // B's stale read is harmless
    expect(eventsOf(events, 'write-accepted').map((e) => e.value)).toEqual([7, 5]);
  });

  it("optimistic-version: B's first write finds the version moved and retries once", async () => {
    const { metrics, verdict, events } = await run('optimistic-version');
    expect(metrics).toEqual({ finalStock: 5, expectedStock: 5, retries: 1, refusedSales: 0 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected', 'admin-2')).toHaveLength(1);
    expect(eventsOf(events, 'retry-scheduled', 'admin-2')).toHaveLength(1);
    const reads = eventsOf(events, 'value-read', 'admin-2').map((e) => [e.value, e.version]);
    expect(reads).toEqual([
      [10, 1],
      [7, 2],
    ]);
    expect(
      eventsOf(events, 'row-observed')
        .filter((e) => e.target === 'stock')
        .at(-1)?.value,
    ).toBe('5 (v3)');
  });

  it("select-for-update: B really waits in PostgreSQL on A's row lock, then reads 7", async () => {
    const { metrics, verdict, events } = await run('select-for-update');
    expect(metrics).toEqual({ finalStock: 5, expectedStock: 5, retries: 0, refusedSales: 0 });
    expect(verdict).toBe('pass');
    // A saw B blocked by its own backend (pg_blocking_pids) before it started thinking.
    expect(eventsOf(events, 'note', 'admin-1').map((e) => e.text)).toEqual(['PostgreSQL: admin-2 waits for our row lock']);
    const [started] = eventsOf(events, 'wait-started', 'admin-2');
    const [finished] = eventsOf(events, 'wait-finished', 'admin-2');
    expect(finished!.atMs - started!.atMs).toBeGreaterThanOrEqual(200); // A held the lock for thinkMs after that
    expect(eventsOf(events, 'value-read', 'admin-2')[0]?.value).toBe(7);
    // The server's own sample of pg_stat_activity saw the wait too.
    const locks = eventsOf(events, 'row-observed')
      .filter((e) => e.target === 'row lock')
      .map((e) => e.value);
    expect(locks).toContain('admin-2 waits for admin-1');
    expect(locks.at(-1)).toBe('no one waits');
  });
});

describe('the verdict needs no word from an admin', () => {
  // admin-1 is killed right after its sale, before it says anything more: the figures come
  // from the row and the trigger's log, so nothing is missing.
  const killedAfterSale = [{ checkpoint: 'sale-done', target: 'admin-1', action: 'kill' as const }];

  it('atomic-update: both sales are taken off though admin-1 died right after its own', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'lost-update', 'atomic-update', {}, killedAfterSale);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(metrics).toEqual({ finalStock: 5, expectedStock: 5, retries: 0, refusedSales: 0 });
    expect(verdict).toBe('pass');
  });

  it('read-modify-write: admin-1 killed the same way, and its sale is still lost', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'lost-update', 'read-modify-write', {}, killedAfterSale);
    expect(eventsOf(events, 'process-killed')).toHaveLength(1);
    expect(metrics).toEqual({ finalStock: 8, expectedStock: 5, retries: 0, refusedSales: 0 });
    expect(verdict).toBe('fail');
  });
});

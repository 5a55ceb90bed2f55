// Every lost-update variant against the real PostgreSQL, at its defaults and at other
// parameters. Admins read in list order, nobody writes before every admin has read (or
// waits on the row lock), and they write in list order, so each verdict is the same on
// every run.
// This file holds the parameters; lostUpdate.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('lost-update');
const { run } = tested;

/** What each variant must end with under this choreography, worked out by hand. */
function predicted(variant: string, initialStock: number, sales: number[]) {
  let stock = initialStock;
  let refused = 0;
  for (const q of sales) {
    if (q <= stock) stock -= q;
    else refused++;
  }
  const expectedStock = stock;
  const applied = sales.length - refused;
  if (variant === 'read-modify-write') {
    // Every admin decides on the initial stock; the last one that writes wins.
    const fitting = sales.filter((q) => q <= initialStock);
    const last = fitting.at(-1);
    return {
      finalStock: last === undefined ? initialStock : initialStock - last,
      expectedStock,
      retries: 0,
      refusedSales: sales.length - fitting.length,
    };
  }
  // optimistic: every admin after the first successful one finds the version moved, once.
  const retries = variant === 'optimistic-version' ? Math.max(0, applied - 1) : 0;
  return { finalStock: expectedStock, expectedStock, retries, refusedSales: refused };
}

const variants = ['read-modify-write', 'atomic-update', 'optimistic-version', 'select-for-update'];

describe.concurrent('lost-update honours its parameters', () => {
  const cases = [
    { initialStock: 4, sales: [3, 2] }, // the second sale does not fit
    { initialStock: 10, sales: [1, 2, 3, 4] },
    { initialStock: 10, sales: [7] },
    { initialStock: 5, sales: [2, 9, 3] }, // the middle sale does not fit
    { initialStock: 0, sales: [5] },
    { initialStock: 4, sales: [3, 3] }, // read-modify-write oversells with the right final stock
  ];
  for (const variant of variants) {
    it(`${variant} ends where the choreography says, for every case`, async () => {
      for (const { initialStock, sales } of cases) {
        const { metrics } = await run(variant, { initialStock, sales: sales.join(','), thinkMs: 30 });
        expect({ initialStock, sales, metrics }).toEqual({ initialStock, sales, metrics: predicted(variant, initialStock, sales) });
      }
    });
  }

  it('stock 4, sales 3,2: the correct variants refuse B, read-modify-write sells 5 of 4', async () => {
    const broken = await run('read-modify-write', { initialStock: 4, sales: '3,2' });
    expect(broken.metrics).toMatchObject({ finalStock: 2, expectedStock: 1, refusedSales: 0 });
    expect(broken.verdict).toBe('fail');
    for (const variant of variants.slice(1)) {
      const { metrics, verdict } = await run(variant, { initialStock: 4, sales: '3,2', thinkMs: 0 });
      expect(metrics).toMatchObject({ finalStock: 1, refusedSales: 1 });
      expect(verdict).toBe('pass');
    }
  });

  const twenty = Array(20).fill(1).join(',');
  it('twenty admins, optimistic: one retry per sale after the first that goes through', async () => {
    const { metrics } = await run('optimistic-version', { initialStock: 15, sales: twenty, thinkMs: 0 });
    expect(metrics).toEqual({ finalStock: 0, expectedStock: 0, retries: 14, refusedSales: 5 });
  });

  it("twenty admins, select-for-update: each waits on the previous one's row lock, even without think time", async () => {
    const { metrics, events } = await run('select-for-update', { initialStock: 15, sales: twenty, thinkMs: 0 });
    expect(metrics).toEqual({ finalStock: 0, expectedStock: 0, retries: 0, refusedSales: 5 });
    const notes = eventsOf(events, 'note')
      .sort((a, b) => a.atMs - b.atMs) // stamped by each process on the host-wide clock
      .map((e) => `${e.workerId}: ${e.text}`);
    expect(notes).toEqual(Array.from({ length: 19 }, (_, i) => `admin-${i + 1}: PostgreSQL: admin-${i + 2} waits for our row lock`));
  });

  it('thinkMs is how long each admin holds between its turn and its write', async () => {
    const { events } = await run('select-for-update', { thinkMs: 500 });
    const [started] = eventsOf(events, 'wait-started', 'admin-2');
    const [finished] = eventsOf(events, 'wait-finished', 'admin-2');
    expect(finished!.atMs - started!.atMs).toBeGreaterThanOrEqual(500);
    const rmw = await run('read-modify-write', { thinkMs: 400 });
    const read = eventsOf(rmw.events, 'value-read', 'admin-1')[0]!;
    const wrote = eventsOf(rmw.events, 'write-accepted', 'admin-1')[0]!;
    expect(wrote.atMs - read.atMs).toBeGreaterThanOrEqual(400);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const prepare = (params: Record<string, unknown>) =>
      tested.playground.prepare({ scenario: 'lost-update', variant: 'atomic-update', params });
    const tooMany = prepare({ sales: Array(21).fill(1).join(',') });
    expect(tooMany.ok).toBe(false);
    expect(!tooMany.ok && tooMany.error).toMatch(/^parameter 'sales' must be a comma-separated list of 1 to 20 integers from 1 to 1000/);
    expect(prepare({ sales: '3,0' })).toMatchObject({ ok: false });
    expect(prepare({ initialStock: -1 })).toMatchObject({ ok: false });
    expect(prepare({ thinkMs: 5001 })).toMatchObject({ ok: false });
  });

  it('leaves no schema behind', async () => {
    const { run: finished } = await run('select-for-update', { thinkMs: 0 });
    const schemas = await tested.playground.pg.query('select 1 from pg_namespace where nspname = $1', [`run_${finished.id}`]);
    expect(schemas.rowCount).toBe(0);
  });
});

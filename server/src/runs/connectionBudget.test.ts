// The room's connection budget on the real Redis and PostgreSQL, each test in a room of its
// own (a fresh key prefix): a line whose first run does not fit waits, and starts when a run
// settles; a server that dies (its Redis connection gone, so it renews nothing) loses its
// reservations once its entry expires; the budget read from PostgreSQL leaves the superuser's
// connections and the outsiders' out.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@racelab/shared';
import { DEFAULT_LIMITS } from '../http/limits.js';
import { QueueDesk, type QueueOwner, type Waiting } from '../http/queueDesk.js';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { until } from '../testing/wsClient.js';
import { ConnectionBudget, OUTSIDERS_MARGIN } from './connectionBudget.js';

const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 2 });
const prefixes: string[] = [];
const budgets: ConnectionBudget[] = [];

/** A room of this test's own. */
function room(): string {
  const prefix = `racelab:budget-test:${randomBytes(4).toString('hex')}:`;
  prefixes.push(prefix);
  return prefix;
}

async function budget(options: Parameters<typeof ConnectionBudget.open>[2], on = redis): Promise<ConnectionBudget> {
  const opened = await ConnectionBudget.open(on, pool, options);
  budgets.push(opened);
  return opened;
}

afterAll(async () => {
  await Promise.all(budgets.map((b) => b.close()));
  for (const prefix of prefixes) await redis.del(`${prefix}held`, `${prefix}alive`);
  redis.disconnect();
  await pool.end();
});

/** A page in line whose runs settle when the test says. */
class Page implements QueueOwner {
  readonly told: ServerMessage[] = [];
  readonly started: string[] = [];
  private readonly ends = new Map<string, () => void>();
  constructor(private readonly slots: { active: number; workers: number }) {}

  send(message: ServerMessage): void {
    this.told.push(message);
  }
  admit(place: Waiting): { settled: Promise<void> } {
    this.started.push(place.requestId);
    this.slots.active++;
    this.slots.workers += place.workerCount;
    const settled = new Promise<void>((resolve) =>
      this.ends.set(place.requestId, () => {
        this.slots.active--;
        this.slots.workers -= place.workerCount;
        resolve();
      }),
    );
    return { settled };
  }
  adopt(): void {}
  /** The run of this start settles (its workers gone, its connections closed). */
  end(requestId: string): void {
    this.ends.get(requestId)!();
  }
}

function start(desk: QueueDesk, page: Page, requestId: string): void {
  const message = { type: 'start-run', requestId, scenario: 'duplicate-job', variant: 'no-lock', params: {} } as Waiting['message'];
  expect(desk.enqueue(page, { requestId, pageId: 'p', address: '10.0.0.1', message, workerCount: 3 })).toBe(true);
}

describe('connection budget', () => {
  it('queues the run that would exceed the budget and starts it when a run settles', async () => {
    // Two runs of three workers fit in 10 connections (3 + 2 each); a third must wait, with slots to spare.
    const prefix = room();
    const mine = await budget({ name: 'server-a', baseline: 0, limit: 10, keyPrefix: prefix });
    const slots = { active: 0, workers: 0 };
    const desk = new QueueDesk(DEFAULT_LIMITS, slots, mine);
    const page = new Page(slots);
    for (const id of ['r1', 'r2', 'r3']) start(desk, page, id);
    await until(() => page.started.length === 2, 'two runs started');
    const toldR3 = (): ServerMessage[] => page.told.filter((m) => m.type === 'run-queued' && m.requestId === 'r3');
    await until(
      () => toldR3().at(-1)?.type === 'run-queued' && (toldR3().at(-1) as { position: number }).position === 1,
      'r3 first in line',
    );
    // The first start's reservation fitted at once: it was never told to wait.
    expect(page.told.some((m) => m.type === 'run-queued' && m.requestId === 'r1')).toBe(false);
    expect(Number(await redis.hget(`${prefix}held`, 'server-a'))).toBe(10);
    // Slots are free; the connections are not: r3 stays in line however long it asks again.
    expect(slots.active).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(page.started).toEqual(['r1', 'r2']);
    page.end('r1');
    await until(() => page.started.length === 3, 'r3 started once r1 settled');
    expect(page.started).toEqual(['r1', 'r2', 'r3']);
    page.end('r2');
    page.end('r3');
    await until(async () => Number(await redis.hget(`${prefix}held`, 'server-a')) === 0, 'every reservation given back');
    desk.close('done');
  });

  it("lets another server have a dead server's reservations once its entry expires", async () => {
    const prefix = room();
    const theirs = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
    const dying = await budget({ name: 'server-dead', baseline: 2, limit: 10, keyPrefix: prefix, ttlMs: 400, renewEveryMs: 100 }, theirs);
    const live = await budget({ name: 'server-live', baseline: 2, limit: 10, keyPrefix: prefix, ttlMs: 400, renewEveryMs: 100 });
    expect(await dying.reserve(5)).toBe(true);
    // 2 + 7 held: the live server's run of 3 workers (5) does not fit.
    expect(await live.reserve(5)).toBe(false);
    // The server dies: its connection to Redis goes, so nothing renews its entry.
    theirs.disconnect();
    const diedAt = Date.now();
    await until(() => live.reserve(5), 'the live server reserves once the dead one has expired', 5000, 50);
    expect(Date.now() - diedAt).toBeGreaterThanOrEqual(300);
    expect(await redis.hget(`${prefix}held`, 'server-dead')).toBeNull();
    expect(Number(await redis.hget(`${prefix}held`, 'server-live'))).toBe(7);
  });

  it('checks growth only: a release, a renewal and the baseline are written whatever the others hold', async () => {
    const prefix = room();
    const a = await budget({ name: 'a', baseline: 8, limit: 10, keyPrefix: prefix });
    // The baseline is held already (the server's pool and warm workers): written though it passes the budget.
    const b = await budget({ name: 'b', baseline: 8, limit: 10, keyPrefix: prefix });
    expect(await redis.hgetall(`${prefix}held`)).toEqual({ a: '8', b: '8' });
    expect(await a.reserve(1)).toBe(false);
    await b.close();
    expect(await a.reserve(2)).toBe(true);
    a.release(2);
    await until(async () => (await redis.hget(`${prefix}held`, 'a')) === '8', 'the release written');
  });

  it("reads the budget from PostgreSQL: max_connections less the superuser's and the outsiders'", async () => {
    const { rows } = await pool.query<{ usable: number }>(
      `select current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int as usable`,
    );
    const usable = rows[0]!.usable;
    const read = await budget({ name: 'reader', baseline: 1, keyPrefix: room() });
    // This file's own pool is an outsider (it is not named racelab): at least its connection is left out.
    expect(read.roomLimit).toBeLessThanOrEqual(usable - 1 - OUTSIDERS_MARGIN);
    expect(read.roomLimit).toBeGreaterThan(0);
  });
});

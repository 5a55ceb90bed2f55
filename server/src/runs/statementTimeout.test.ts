// A statement that hangs — here a real `select pg_sleep(...)` longer than the timeout —
// fails with words that say so, instead of holding a run until a deadline says something
// vaguer (or holding a connection of the server's pool for good); the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { runOf } from '../testing/runOf.js';
import { openTestPlayground, play } from '../testing/testPlayground.js';
import { leftovers, until } from '../testing/wsClient.js';
import { Playground } from './playground.js';
import { SERVER_STATEMENT_TIMEOUT_MS } from './serverConnections.js';
import { runStatementTimeoutMs, type Run } from './run.js';
import { SpareConnection } from './spareConnection.js';

const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
/** statement_timeout of the connection that asks, in ms. */
const TIMEOUT_SQL = "select setting::int as ms from pg_settings where name = 'statement_timeout'";

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground();
});
afterAll(async () => {
  await playground.close();
});

/** A spare connection that counts the times it was taken ready. */
class CountedSpare extends SpareConnection {
  taken = 0;
  override take(): ReturnType<SpareConnection['take']> {
    const client = super.take();
    if (client) this.taken++;
    return client;
  }
}

/** A run of duplicate-job whose setup first runs `text` on the run's own connection and keeps what it returned. */
function runWithStatement(text: string, options: { deadlineMs?: number; spare?: SpareConnection } = {}) {
  const seen: unknown[] = [];
  const run: Run = runOf(playground, 'duplicate-job', 'token-lua', {
    deadlineMs: options.deadlineMs,
    services: options.spare ? { spare: options.spare } : {},
    scenario: (s) => ({
      ...s,
      setup: async (stores, params, info) => {
        seen.push(...(await stores.sql(text)).rows);
        return s.setup(stores, params, info);
      },
    }),
  });
  return { run, seen };
}

describe('statement timeouts', () => {
  it("a run's own connection has half the shorter deadline, made fresh or taken from the spare", async () => {
    expect(runStatementTimeoutMs(15_000)).toBe(7500);
    expect(runStatementTimeoutMs(5 * 60_000)).toBe(30_000);
    const fresh = runWithStatement(TIMEOUT_SQL, { deadlineMs: 20_000 });
    expect(await fresh.run.start()).toMatchObject({ status: 'finished', verdict: 'pass' });
    expect(fresh.seen).toEqual([{ ms: 10_000 }]);

    const spare = new CountedSpare({ connectionString: databaseUrl });
    spare.refill();
    await until(() => spare.state === 'ready', 'the spare connection ready');
    const adopted = runWithStatement(TIMEOUT_SQL, { deadlineMs: 30_000, spare });
    expect(await adopted.run.start()).toMatchObject({ status: 'finished', verdict: 'pass' });
    expect(spare.taken).toBe(1); // the run's connection was the spare
    expect(adopted.seen).toEqual([{ ms: 15_000 }]);
    await spare.close();
  });

  it('a statement of the run past its timeout fails the run in clear words; nothing is left and the next run plays', async () => {
    // A 4 s deadline: a 2 s statement timeout, well inside the 60 s the run has to start.
    const { run } = runWithStatement('select pg_sleep(30)', { deadlineMs: 4000 });
    expect(await run.start()).toEqual({
      status: 'failed',
      message: 'a PostgreSQL statement of the run took longer than 2000 ms and was cancelled (statement_timeout): select pg_sleep(30)',
    });
    await run.settled;
    expect(await leftovers(playground.redis, playground.pg, run.id)).toEqual({ keys: [], schema: false });
    // No backend is left sleeping for the rest of the 30 s.
    const { rows } = await playground.pg.query(
      "select count(*)::int as n from pg_stat_activity where application_name = $1 and state = 'active'",
      [`racelab-server run_${run.id}`],
    );
    expect(rows).toEqual([{ n: 0 }]);
    expect((await play(playground, 'duplicate-job', 'token-lua')).verdict).toBe('pass');
  });

  it("the server's own connections have a timeout: a hung statement fails and holds no connection", async () => {
    expect((await playground.pg.query(TIMEOUT_SQL)).rows).toEqual([{ ms: SERVER_STATEMENT_TIMEOUT_MS }]);
    const short = await Playground.open({
      redisUrl: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
      databaseUrl,
      poolSize: 1,
      statementTimeoutMs: 500,
    });
    try {
      await expect(short.pg.query('select pg_sleep(30)')).rejects.toThrow('canceling statement due to statement timeout');
      // The pool closed the connection the statement failed on: none is held busy by it.
      expect(short.pg.totalCount - short.pg.idleCount).toBe(0);
      const next = await play(short, 'duplicate-job', 'token-lua');
      expect(next.verdict).toBe('pass');
      expect(await leftovers(short.redis, short.pg, next.run.id)).toEqual({ keys: [], schema: false });
    } finally {
      await short.close();
    }
  });
});

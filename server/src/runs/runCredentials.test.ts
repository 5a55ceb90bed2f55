// Each run's own store users on the real Redis and PostgreSQL: made with the run, in use by
// its workers, holding them to the run's keys and schema with the stores' own permission
// errors, and gone with the run; and stores that refuse them, said once at the start. The
// fixture `trespass` (testing/fixtures/trespass/) has a run that stays in its own key and row
// until the test says go, and runs whose worker reaches for that run's key or schema.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { runOf } from '../testing/runOf.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { until, usersLeft } from '../testing/wsClient.js';
import { credentialedUrl } from '../worker/runLogin.js';
import { probeCredentials } from './credentialProbe.js';
import { Playground } from './playground.js';
import type { Run } from './run.js';

// Worker processes run the built JavaScript and inherit the variable: set before the pool forks them.
process.env.RACELAB_SCENARIOS = fileURLToPath(new URL('../../dist/testing/fixtures/trespass/', import.meta.url));
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(4);
});
afterAll(async () => {
  await playground?.close();
  delete process.env.RACELAB_SCENARIOS;
});

/** A run of trespass's `variant` on `on`, its setup naming `target` as the run its worker reaches for. */
function trespass(variant: string, target = '', on = playground): Run {
  return runOf(on, 'trespass', variant, {
    scenario: (s) => ({ ...s, setup: async (stores, params, info) => ({ ...(await s.setup(stores, params, info)), shared: { target } }) }),
  });
}

/** Starts `stay-home` and resolves once it holds its key and row; `go` lets it finish. */
async function stayingHome(on = playground): Promise<{ run: Run; done: ReturnType<Run['start']>; note: string; go(): Promise<void> }> {
  const run = trespass('stay-home', '', on);
  const done = run.start();
  await until(() => run.events.some((e) => e.type === 'work-started') || run.done, 'stay-home holds its key and row', 60_000);
  const note = run.events.find((e) => e.type === 'note');
  return {
    run,
    done,
    note: note?.type === 'note' ? note.text : `no note: ${JSON.stringify(run.events.at(-1))}`,
    go: async () => void (await on.redis.rpush(`racelab:${run.id}:go`, 'go')),
  };
}

describe("a run's own store users", () => {
  it('are made with the run, used by its workers, and gone with it', async () => {
    expect(playground.credentials.redisRules).not.toBeNull();
    expect(playground.credentials.postgresRoles).toBe(true);
    const home = await stayingHome();
    const name = `racelab_run_${home.run.id}`;
    expect(home.note).toBe(`redis ${name}, postgres ${name}`);
    expect(await usersLeft(playground.redis, playground.pg, home.run.id)).toEqual([`Redis ACL user ${name}`, `PostgreSQL role ${name}`]);
    // A process started for the run alone connects as the run's users from the start.
    const urls = home.run.storeUrls();
    expect([new URL(urls.redisUrl).username, new URL(urls.databaseUrl).username]).toEqual([name, name]);
    await home.go();
    expect(await home.done).toMatchObject({ status: 'finished', verdict: 'pass' });
    await home.run.settled;
    expect(await usersLeft(playground.redis, playground.pg, home.run.id)).toEqual([]);
  }, 120_000);

  it("hold a worker to its run: another run's key and schema get the stores' own permission errors, and that run is untouched", async () => {
    const home = await stayingHome();
    const schema = `run_${home.run.id}`;
    const refusals: [string, RegExp][] = [
      ['del-other-key', /^worker-1 failed: NOPERM .*\bkeys?\b/],
      ['drop-other-schema', new RegExp(`^worker-1 failed: must be owner of schema ${schema}$`)],
      ['delete-other-rows', new RegExp(`^worker-1 failed: permission denied for schema ${schema}$`)],
    ];
    for (const [variant, refused] of refusals) {
      const intruder = trespass(variant, home.run.id);
      expect(await intruder.start(), variant).toMatchObject({ status: 'failed', message: expect.stringMatching(refused) });
      // The timeline ends with it.
      expect(intruder.events.at(-1)).toMatchObject({ type: 'run-failed', message: expect.stringMatching(refused) });
      await intruder.settled;
      expect(await usersLeft(playground.redis, playground.pg, intruder.id)).toEqual([]);
    }
    expect(await playground.redis.get(`racelab:${home.run.id}:mine`)).toBe('untouched');
    await home.go();
    // Its verdict, counted from the stores: its key and its row as it wrote them.
    expect(await home.done).toMatchObject({ status: 'finished', verdict: 'pass', metrics: { keyIntact: 1, rowsIntact: 1 } });
    await home.run.settled;
    expect(await usersLeft(playground.redis, playground.pg, home.run.id)).toEqual([]);
  }, 120_000);
});

describe('stores that refuse them', () => {
  it("Redis that will not make ACL users: said once at the start; runs go on as the server's Redis user, with roles of their own", async () => {
    const user = { name: `racelab_test_${randomBytes(4).toString('hex')}`, password: randomBytes(16).toString('hex') };
    await playground.redis.call(
      'ACL',
      'SETUSER',
      user.name,
      'reset',
      'on',
      `>${user.password}`,
      '~*',
      '&*',
      '+@all',
      '-acl',
      '+acl|whoami',
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusals = (): string[] =>
      logged.mock.calls
        .map((call) => String(call[0]))
        .filter((line) => line.includes('runs use the server') || line.includes('no ACL user'));
    let limited: Playground | undefined;
    try {
      limited = await Playground.open({ redisUrl: credentialedUrl(redisUrl, user.name, user.password), databaseUrl, poolSize: 1 });
      expect(refusals()).toEqual([
        expect.stringMatching(
          /^racelab: runs use the server's Redis user, as before: Redis gives them no ACL user of their own \(ACL SETUSER was refused: NOPERM .*\); see docs\/SERVICES\.md$/,
        ),
      ]);
      expect(limited.credentials).toEqual({ redisRules: null, postgresRoles: true });
      const home = await stayingHome(limited);
      expect(home.note).toBe(`redis ${user.name}, postgres racelab_run_${home.run.id}`);
      await home.go();
      expect(await home.done).toMatchObject({ status: 'finished', verdict: 'pass' });
      await home.run.settled;
      expect(await usersLeft(playground.redis, playground.pg, home.run.id)).toEqual([]);
      // Once: a run does not say it again.
      expect(refusals()).toHaveLength(1);
    } finally {
      logged.mockRestore();
      await limited?.close();
      await playground.redis.call('ACL', 'DELUSER', user.name);
    }
  }, 120_000);

  it('PostgreSQL whose user may not CREATE ROLE: the probe says so in its one line', async () => {
    const role = `racelab_test_${randomBytes(4).toString('hex')}`;
    const database = new URL(databaseUrl).pathname.slice(1) || 'postgres';
    // What a server needs for its run registry, and no more: no CREATEROLE.
    await playground.pg.query(`create role ${role} login password 'test';
      grant create on database ${database} to ${role};
      grant usage, create on schema racelab to ${role};
      grant select, insert, delete on racelab.runs to ${role}`);
    const pool = new pg.Pool({ connectionString: credentialedUrl(databaseUrl, role, 'test'), max: 2 });
    try {
      const probed = await probeCredentials({ redis: playground.redis, pool }, { redisUrl, databaseUrl });
      expect(probed.support.postgresRoles).toBe(false);
      expect(probed.support.redisRules).not.toBeNull();
      expect(probed.refused).toBe(
        "runs use the server's PostgreSQL user, as before: PostgreSQL gives them no role of their own (CREATE ROLE was refused: permission denied to create role); see docs/SERVICES.md",
      );
    } finally {
      await pool.end();
      await playground.pg.query(`drop owned by ${role}; drop role ${role}`);
    }
  }, 60_000);
});

// Edited code inside its walls, logged in to the stores as its run's own users (the same
// functions every run's users are made with): another run's key and schema get the stores'
// own permission errors, its own are its to use, and the other run's key, schema and row
// stay as they were.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureRegistry, registerOnly, settled, unregister } from '../debris/runRegistry.js';
import { createAclUser, createRoleSql, deleteAclUser, dropRole, newRunCredentials, redisRunRules } from '../runs/runCredentials.js';
import { credentialedUrl } from '../worker/runLogin.js';
import { openConfinement, type Confinement } from './confinement.js';
import { endedWords } from './endedWords.js';
import { clientPath, databaseUrl, MODULES, redisUrl, removeScratches, reported, runHostile, STORES } from './testing/hostile.js';

const mine = randomBytes(5).toString('hex');
const theirs = randomBytes(5).toString('hex');
let confinement: Confinement;
let redis: Redis;
let pool: pg.Pool;
let login: { redisUrl: string; databaseUrl: string };

beforeAll(async () => {
  confinement = await openConfinement(STORES);
  redis = new Redis(redisUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // Registered, so that a sweep of another server on these stores leaves both runs alone.
  await ensureRegistry(pool);
  for (const id of [mine, theirs]) await pool.query(registerOnly(id));
  const version = Number(/^redis_version:(\d+)/m.exec(await redis.info('server'))?.[1] ?? 0);
  const credentials = newRunCredentials(mine, { redisRules: redisRunRules(version), postgresRoles: true });
  await createAclUser(redis, mine, credentials.redis!, redisRunRules(version));
  await pool.query(
    `create schema run_${mine}; create schema run_${theirs}; create table run_${theirs}.t (v text); insert into run_${theirs}.t values ('theirs')`,
  );
  await pool.query(createRoleSql(credentials.postgres!, `run_${mine}`));
  // After the role: the schema's default privileges make the table its own to use.
  await pool.query(`create table run_${mine}.t (v text)`);
  await redis.set(`racelab:${mine}:k`, 'mine');
  await redis.set(`racelab:${theirs}:k`, 'theirs');
  login = {
    redisUrl: credentialedUrl(redisUrl, credentials.redis!.username, credentials.redis!.password),
    databaseUrl: credentialedUrl(databaseUrl, credentials.postgres!.role, credentials.postgres!.password),
  };
});

afterAll(async () => {
  await confinement?.close();
  await deleteAclUser(redis, mine).catch(() => undefined);
  await pool.query(`drop schema if exists run_${mine} cascade; drop schema if exists run_${theirs} cascade`);
  await dropRole(pool, mine);
  await redis.del(`racelab:${mine}:k`, `racelab:${theirs}:k`);
  for (const id of [mine, theirs]) {
    await unregister(pool, id);
    settled(id);
  }
  redis.disconnect();
  await pool.end();
  await removeScratches();
});

it("a run's users hold confined edited code to its run: another run's key and schema are refused by the stores themselves", async () => {
  const script = `const Redis = require(${JSON.stringify(clientPath('ioredis'))});
    const pg = require(${JSON.stringify(clientPath('pg'))});
    const outcome = (promise) => promise.then((value) => ({ value }), (e) => ({ error: e.message }));
    (async () => {
      const redis = new Redis(${JSON.stringify(login.redisUrl)}, { maxRetriesPerRequest: 0 });
      const own = await outcome(redis.del('racelab:${mine}:k'));
      const other = await outcome(redis.del('racelab:${theirs}:k'));
      redis.disconnect();
      const client = new pg.Client({ connectionString: ${JSON.stringify(login.databaseUrl)} });
      await client.connect();
      const write = await outcome(client.query("insert into run_${mine}.t values ('mine')").then(() => 'written'));
      const drop = await outcome(client.query('drop schema run_${theirs} cascade').then(() => 'dropped'));
      const remove = await outcome(client.query('delete from run_${theirs}.t').then(() => 'deleted'));
      await client.end();
      console.log(JSON.stringify({ own, other, write, drop, remove }));
    })();`;
  const ended = await (await runHostile(confinement, script, { reads: [MODULES] })).ended;
  const done = reported<Record<'own' | 'other' | 'write' | 'drop' | 'remove', { value?: unknown; error?: string }>>(ended);
  expect(done.own).toEqual({ value: 1 });
  expect(done.other.error).toMatch(/^NOPERM .*\bkeys?\b/);
  expect(done.write).toEqual({ value: 'written' });
  expect(done.drop).toEqual({ error: `must be owner of schema run_${theirs}` });
  expect(done.remove).toEqual({ error: `permission denied for schema run_${theirs}` });
  // The words a learner reads are the stores' own.
  expect(endedWords({ code: 1, signal: null, text: `Error: ${done.other.error}` })).toBe(`Redis refused your code: ${done.other.error}`);
  expect(endedWords({ code: 1, signal: null, text: `error: ${done.drop.error}` })).toBe(`PostgreSQL refused your code: ${done.drop.error}`);
  // Ground truth: the other run's key, schema and row as they were; its own key gone, its row written.
  expect(await redis.get(`racelab:${theirs}:k`)).toBe('theirs');
  expect(await redis.exists(`racelab:${mine}:k`)).toBe(0);
  expect((await pool.query(`select v from run_${theirs}.t`)).rows).toEqual([{ v: 'theirs' }]);
  expect((await pool.query(`select v from run_${mine}.t`)).rows).toEqual([{ v: 'mine' }]);
});

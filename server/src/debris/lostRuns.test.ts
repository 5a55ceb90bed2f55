// A server's lease and what a live server says of a run it does not hold, against the real
// Redis and PostgreSQL: a lease held is a key and a name in the set of leases, gone once
// released; a lease is gone when its key expired or, on this machine, when its process no
// longer runs; a run whose owner is dead is lost (with its server's name), a run whose owner
// lives is not, and a run never registered is unknown. Rows are this file's own (fresh run
// ids, an owner on a machine of its own), deleted at the end.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { LOST_PREFIX, recordLost, whereabouts } from './lostRuns.js';
import { ensureRegistry, THIS_PROCESS, type RegisteredRun } from './runRegistry.js';
import { goneLeases, LEASE_PREFIX, LEASES_KEY, MY_LEASE, ServerLease } from './serverLease.js';
import { debrisKind } from './sweep.js';

const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 2 });
const elsewhere = `lost-runs-test-${randomBytes(4).toString('hex')}`;
const ids: string[] = [];
const keys: string[] = [];

/** A pid that ran and has exited: no process has it now. */
const deadPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

/** Registers a run of `owner` straight in the registry (as a server on another machine, or a dead process here, would have). */
async function registered(owner: Partial<RegisteredRun>): Promise<RegisteredRun> {
  const run: RegisteredRun = {
    runId: randomBytes(5).toString('hex'),
    host: elsewhere,
    pid: 1,
    ticks: null,
    lease: null,
    serverName: null,
    ...owner,
  };
  ids.push(run.runId);
  await pool.query('insert into racelab.runs (run_id, host, pid, ticks, lease, server_name) values ($1, $2, $3, $4, $5, $6)', [
    run.runId,
    run.host,
    run.pid,
    run.ticks,
    run.lease,
    run.serverName,
  ]);
  return run;
}

beforeAll(() => ensureRegistry(pool));
afterAll(async () => {
  await pool.query('delete from racelab.runs where run_id = any($1)', [ids]);
  for (const id of ids) keys.push(`${LOST_PREFIX}${id}`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.srem(LEASES_KEY, ...keys);
  redis.disconnect();
  await pool.end();
});

describe("a server's lease", () => {
  it('is a key holding its name and a member of the set of leases until released', async () => {
    const lease = await ServerLease.hold(redis, { name: 's7', onGone: () => undefined });
    expect(await redis.get(MY_LEASE)).toBe('s7');
    expect(await redis.pttl(MY_LEASE)).toBeGreaterThan(0);
    expect(await redis.sismember(LEASES_KEY, MY_LEASE)).toBe(1);
    await lease.release();
    expect(await redis.exists(MY_LEASE)).toBe(0);
  });

  it("is gone when its key expired, or when it is this machine's and its process no longer runs", async () => {
    const expired = `${LEASE_PREFIX}${elsewhere}:4242:none`;
    const liveElsewhere = `${LEASE_PREFIX}${elsewhere}:4243:none`;
    const deadHere = `${LEASE_PREFIX}${THIS_PROCESS.host}:${deadPid()}:none`;
    keys.push(expired, liveElsewhere, deadHere);
    await redis.set(liveElsewhere, 's8', 'PX', 60_000);
    await redis.set(deadHere, 's9', 'PX', 60_000);
    await redis.sadd(LEASES_KEY, expired, liveElsewhere, deadHere);
    const gone = await goneLeases(redis);
    expect(gone).toEqual(expect.arrayContaining([expired, deadHere]));
    expect(gone).not.toContain(liveElsewhere);
  });
});

describe('what a live server says of a run it does not hold', () => {
  it('lost, naming the server, when the owner is a process of this machine that no longer runs', async () => {
    const run = await registered({ host: THIS_PROCESS.host, pid: deadPid(), serverName: 's2' });
    expect(await whereabouts(redis, pool, run.runId, 0)).toEqual({ lost: true, server: 's2' });
  });

  it("lost when another machine's owner's lease has expired; not while it is held", async () => {
    const lease = `${LEASE_PREFIX}${elsewhere}:77:none`;
    keys.push(lease);
    const run = await registered({ lease, serverName: 's3' });
    await redis.set(lease, 's3', 'PX', 60_000);
    expect(await whereabouts(redis, pool, run.runId, 300)).toEqual({ lost: false });
    // It died: its lease ends while the question waits for it.
    setTimeout(() => void redis.del(lease), 300);
    expect(await whereabouts(redis, pool, run.runId, 5000)).toEqual({ lost: true, server: 's3' });
  });

  it("not lost when another machine's owner holds no lease to judge it by, nor when it is this very process", async () => {
    const unleased = await registered({});
    expect(await whereabouts(redis, pool, unleased.runId, 300)).toEqual({ lost: false });
    const mine = await registered({ host: THIS_PROCESS.host, pid: THIS_PROCESS.pid, ticks: THIS_PROCESS.ticks });
    expect(await whereabouts(redis, pool, mine.runId, 0)).toEqual({ lost: false });
  });

  it("lost by the sweep's note once the row is gone; unknown when never registered or not a run id", async () => {
    const runId = randomBytes(5).toString('hex');
    ids.push(runId);
    expect(await whereabouts(redis, pool, runId, 0)).toEqual({ lost: false });
    await recordLost(redis, { runId, host: elsewhere, pid: 1, ticks: null, lease: null, serverName: 's4' });
    expect(await whereabouts(redis, pool, runId, 0)).toEqual({ lost: true, server: 's4' });
    expect(await whereabouts(redis, pool, 'not-a-run', 0)).toEqual({ lost: false });
  });
});

describe("the sweep's judgement of another machine's run", () => {
  it('takes it only with peer leases on, its lease gone and nothing of it connected', async () => {
    const lease = `${LEASE_PREFIX}${elsewhere}:78:none`;
    const run = { runId: 'abcdef0123', host: elsewhere, pid: 1, ticks: null, lease, serverName: 's5' };
    expect(await debrisKind(redis, run, new Set(), false)).toBe(false);
    expect(await debrisKind(redis, run, new Set(), true)).toBe('dead');
    expect(await debrisKind(redis, run, new Set([run.runId]), true)).toBe(false);
    expect(await debrisKind(redis, { ...run, lease: null }, new Set(), true)).toBe(false);
    await redis.set(lease, 's5', 'PX', 60_000);
    keys.push(lease);
    expect(await debrisKind(redis, run, new Set(), true)).toBe(false);
  });
});

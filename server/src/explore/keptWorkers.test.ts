// Runs on kept workers, against the real Redis and PostgreSQL: the same worker processes serve
// two explored runs in a row, each run on connections of its own (the first run's sessions are
// gone from pg_stat_activity and CLIENT LIST before the second's are made); a worker the
// schedule killed is never served again; an ordinary run's workers serve the next run too, but
// one its choreography stopped (SIGSTOP) exits; and a run's in a lab, of a lock library or
// where the scenario says its workers serve one run exit, explored or not.
// Each run is held while every worker waits at its first scheduling point, logged in as the
// run, so its sessions are read from the stores at a moment the schedule makes, not by luck.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent, ScheduleChoice, StepAt } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { RunOutcome } from '../runs/run.js';
import { keepsWorkers } from '../runs/runSetting.js';
import { eventsOf, openTestPlayground, play } from '../testing/testPlayground.js';
import { alive, until, workerPids } from '../testing/wsClient.js';
import { EXPLORE_SPEED, StepScheduler } from './stepScheduler.js';

const WORKERS = 3;

/** The sessions of one run's workers, as the stores list them. */
interface Sessions {
  /** PostgreSQL backend pids of the sessions named after the run's schema. */
  backends: number[];
  /** Redis client ids of the connections logged in as the run's own user. */
  clients: number[];
}

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(WORKERS);
});
afterAll(() => playground.close());

/** A scheduler that, once every worker waits at its first point, calls `look` before any of them goes on. */
class LookingScheduler extends StepScheduler {
  private readonly arrived = new Set<string>();

  constructor(
    choices: ScheduleChoice[],
    private readonly look: () => Promise<void>,
  ) {
    super(choices);
  }

  override arrive(workerId: string, step: StepAt): Promise<void> {
    if (this.arrived.size === WORKERS) return super.arrive(workerId, step);
    this.arrived.add(workerId);
    if (this.arrived.size < WORKERS) return super.arrive(workerId, step);
    return this.look().then(() => super.arrive(workerId, step));
  }
}

async function sessionsOf(runId: string): Promise<Sessions> {
  const { rows } = await playground.pg.query<{ pid: number }>(
    `select pid from pg_stat_activity where application_name like 'racelab-worker run_' || $1 || ' %'`,
    [runId],
  );
  return { backends: rows.map((r) => r.pid), clients: await redisClients(`user=racelab_run_${runId}`) };
}

/** Ids of the Redis clients whose CLIENT LIST line has `field`. */
async function redisClients(field: string): Promise<number[]> {
  const list = (await playground.redis.call('CLIENT', 'LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.split(' ').includes(field))
    .map((line) => Number(/^id=(\d+)/.exec(line)![1]));
}

/** One explored run of duplicate-job no-lock, its workers' sessions read while all of them wait at their first point. */
async function exploredRun(
  choices: ScheduleChoice[] = [],
): Promise<{ outcome: RunOutcome; events: RunEvent[]; runId: string; sessions: Sessions }> {
  let sessions: Sessions = { backends: [], clients: [] };
  let runId = '';
  const scheduler = new LookingScheduler(choices, async () => void (sessions = await sessionsOf(runId)));
  const prepared = playground.prepare({
    scenario: 'duplicate-job',
    variant: 'no-lock',
    params: { workers: WORKERS },
    scheduler,
    speed: EXPLORE_SPEED,
  });
  if (!prepared.ok) throw new Error(prepared.error);
  runId = prepared.run.id;
  const outcome = await prepared.run.start();
  await prepared.run.settled;
  return { outcome, events: prepared.run.events, runId, sessions };
}

const pooled = (events: RunEvent[]): string[] =>
  eventsOf(events, 'worker-exited')
    .filter((e) => e.pooled)
    .map((e) => e.workerId!);

describe('kept workers', () => {
  it('serve two explored runs in a row, each on fresh connections', async () => {
    expect(playground.credentials.redisRules, 'this test tells runs apart by their own Redis users').not.toBeNull();
    const first = await exploredRun();
    expect(first.outcome).toMatchObject({ status: 'finished', metrics: { emailsSent: 3 } });
    expect(first.sessions.backends).toHaveLength(WORKERS);
    expect(first.sessions.clients).toHaveLength(WORKERS);
    expect(pooled(first.events).sort()).toEqual(['worker-1', 'worker-2', 'worker-3']);
    await until(() => playground.pool.idleCount === WORKERS, 'the kept workers warm again');
    // Before the next run: nothing of the first run's sessions is left in either store.
    expect(await sessionsOf(first.runId)).toEqual({ backends: [], clients: [] });
    const { rows } = await playground.pg.query<{ pid: number }>('select pid from pg_stat_activity where pid = any($1)', [
      first.sessions.backends,
    ]);
    expect(rows).toEqual([]);
    const clientsNow = await redisClients('name=racelab-worker');
    expect(clientsNow.filter((id) => first.sessions.clients.includes(id))).toEqual([]);

    const second = await exploredRun();
    expect(second.outcome).toMatchObject({ status: 'finished', metrics: { emailsSent: 3 } });
    // The same processes, on connections made after the first run's were closed.
    expect(workerPids(second.events).sort()).toEqual(workerPids(first.events).sort());
    expect(second.sessions.backends).toHaveLength(WORKERS);
    expect(second.sessions.backends.filter((pid) => first.sessions.backends.includes(pid))).toEqual([]);
    expect(second.sessions.clients).toHaveLength(WORKERS);
    expect(Math.min(...second.sessions.clients)).toBeGreaterThan(Math.max(...first.sessions.clients));
  });

  it('never serves a worker the schedule killed', async () => {
    await until(() => playground.pool.idleCount === WORKERS, 'the pool warm');
    const killing = await exploredRun([{ worker: 'worker-2', kill: true }]);
    expect(killing.outcome.status).toBe('finished');
    const killedPid = eventsOf(killing.events, 'worker-started', 'worker-2')[0]!.pid;
    expect(eventsOf(killing.events, 'worker-exited', 'worker-2')).toEqual([expect.objectContaining({ signal: 'SIGKILL' })]);
    expect(pooled(killing.events).sort()).toEqual(['worker-1', 'worker-3']);
    await until(() => !alive(killedPid), 'the killed worker gone');
    const next = await exploredRun();
    expect(next.outcome.status).toBe('finished');
    const pids = workerPids(next.events);
    expect(pids).not.toContain(killedPid);
    // The two that finished served again; the third is a fresh process.
    const kept = workerPids(killing.events).filter((pid) => pid !== killedPid);
    expect(pids.filter((pid) => kept.includes(pid)).sort()).toEqual(kept.sort());
  });

  it('are only those of a run of catalog code, outside a lab, a lock library and a scenario whose workers serve one run', () => {
    const { scenarios } = playground.catalog;
    const setting = (scenario: string, variant: string) => {
      const definition = scenarios.get(scenario)!;
      const found = [...definition.variants, ...(definition.mutants ?? [])].find((v) => v.id === variant)!;
      return { needs: definition.lab?.({}), variant: found };
    };
    const explored = (scenario: string) => ({ scenario: scenarios.get(scenario)!, scheduler: new StepScheduler() });
    expect(keepsWorkers(explored('duplicate-job'), setting('duplicate-job', 'no-lock'))).toBe(true);
    expect(keepsWorkers({ scenario: scenarios.get('duplicate-job')! }, setting('duplicate-job', 'no-lock'))).toBe(true);
    expect(keepsWorkers({ scenario: scenarios.get('redlock')! }, setting('redlock', scenarios.get('redlock')!.variants[0]!.id))).toBe(
      false,
    );
    const library = scenarios.get('duplicate-job')!.variants.find((v) => v.library)!;
    expect(keepsWorkers(explored('duplicate-job'), setting('duplicate-job', library.id))).toBe(false);
    expect(scenarios.get('stalled-job')!.workersServeOneRun).toMatch(/bullmq/);
    expect(keepsWorkers(explored('stalled-job'), setting('stalled-job', 'plain-insert'))).toBe(false);
    expect(keepsWorkers(explored('redlock'), setting('redlock', scenarios.get('redlock')!.variants[0]!.id))).toBe(false);
  });

  it("an ordinary run's workers serve the next run too, but for one its choreography stopped", async () => {
    await until(() => playground.pool.idleCount === WORKERS, 'the pool warm');
    const first = await play(playground, 'duplicate-job', 'no-lock', { workers: WORKERS });
    expect(first.metrics.emailsSent).toBe(3);
    await first.run.settled;
    expect(pooled(first.events).sort()).toEqual(['worker-1', 'worker-2', 'worker-3']);
    await until(() => playground.pool.idleCount === WORKERS, 'the kept workers warm again');
    const second = await play(playground, 'duplicate-job', 'no-lock', { workers: WORKERS });
    expect(second.metrics.emailsSent).toBe(3);
    expect(workerPids(second.events).sort()).toEqual(workerPids(first.events).sort());
    await second.run.settled;

    // fencing lease-only stops worker-1 (SIGSTOP) past its lease: that process never serves again.
    const fencing = await play(playground, 'fencing', 'lease-only');
    expect(fencing.metrics.staleWritesAccepted).toBe(1);
    await fencing.run.settled;
    expect(eventsOf(fencing.events, 'process-paused', 'worker-1')).toHaveLength(1);
    expect(pooled(fencing.events)).toEqual(['worker-2']);
    const stopped = eventsOf(fencing.events, 'worker-started', 'worker-1')[0]!.pid;
    await until(() => !alive(stopped), 'the stopped worker gone');
  });
});

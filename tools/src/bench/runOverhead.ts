// Run overhead: the wall time of duplicate-job token-lua through racelab's Playground (in
// this process: catalog, warm worker pool, run log, key and row observers, verdict,
// clean-up) against the same steps as a bare script (bare/bareRun.ts), with the same
// number of worker processes, the same barriers and the same Redis/PostgreSQL commands.
// Interleaved: racelab, bare with warm processes, bare forking its processes, per round.
// Also the time from run.start() to the first event a worker emits, with a warm pool.
import { spawn, type ChildProcess } from 'node:child_process';
import type { RunEvent } from '@racelab/shared';
import { Playground, type RunPhase } from '@racelab/server';
import type { BenchResult, Figure } from './figure.js';
import { bareRun, forkBareWorkers, type BarePhases } from './bare/bareRun.js';
import { percentile } from './stats.js';

const SECTION = 'Run overhead';
const WORKERS = 3;
/** Events only the server appends for a worker; anything else a worker emitted itself. */
const SERVER_SIDE = new Set(['worker-started', 'worker-exited', 'process-paused', 'process-resumed', 'process-killed']);

interface RacelabPhases {
  totalMs: number;
  /** prepare + start until run-started: run stores, scenario setup, taking warm workers. */
  setupMs: number;
  firstWorkerEventMs: number;
  /** run-started until the last worker exited. */
  workersMs: number;
  /** The workers' last own event until the last exit: closing connections, 'finished', the process exiting. */
  tailMs: number;
  /** last exit until run-finished: observers stopped, metrics read, verdict. */
  verdictMs: number;
  /** run-finished until start() resolved: fixture closed, keys and schema dropped. */
  cleanupMs: number;
  events: number;
  emails: number;
  /** The run's own phase times (Run.phaseMs). */
  phases: Partial<Record<RunPhase, number>>;
  /** run-started until the first worker event: the plan over IPC, the worker logging in as the run's users, its first step. */
  planToFirstEventMs: number;
}

/** Resolves once the pool holds `count` idle, ready processes: the warm pool a run expects. */
export async function poolWarm(playground: Playground, count: number, tries = 400): Promise<void> {
  const idle = () => (playground.pool as unknown as { idle: unknown[] }).idle.length;
  for (let i = 0; i < tries && idle() < count; i++) await new Promise((r) => setTimeout(r, 25));
}

async function racelabRun(playground: Playground, workMs: number): Promise<RacelabPhases> {
  await poolWarm(playground, WORKERS);
  return timedRun(playground, workMs);
}

async function timedRun(playground: Playground, workMs: number): Promise<RacelabPhases> {
  const t0 = performance.now();
  const prepared = playground.prepare({ scenario: 'duplicate-job', variant: 'token-lua', params: { workers: WORKERS, workMs } });
  if (!prepared.ok) throw new Error(prepared.error);
  const at = new Map<string, number>();
  let firstWorkerEvent = Number.NaN;
  prepared.run.onEvent((e: RunEvent) => {
    const now = performance.now() - t0;
    if (e.workerId !== null && !SERVER_SIDE.has(e.type)) {
      if (Number.isNaN(firstWorkerEvent)) firstWorkerEvent = now;
      at.set('last-worker-event', now);
    }
    if (e.type === 'run-started' || e.type === 'run-finished') at.set(e.type, now);
    if (e.type === 'worker-exited') at.set('last-exit', now);
  });
  const outcome = await prepared.run.start();
  const totalMs = performance.now() - t0;
  if (outcome.status !== 'finished') throw new Error(`racelab run failed: ${outcome.message}`);
  return {
    totalMs,
    setupMs: at.get('run-started')!,
    firstWorkerEventMs: firstWorkerEvent,
    workersMs: at.get('last-exit')! - at.get('run-started')!,
    tailMs: at.get('last-exit')! - at.get('last-worker-event')!,
    verdictMs: at.get('run-finished')! - at.get('last-exit')!,
    cleanupMs: totalMs - at.get('run-finished')!,
    events: prepared.run.events.length,
    emails: Number(outcome.metrics.emailsSent),
    phases: { ...prepared.run.phaseMs },
    planToFirstEventMs: firstWorkerEvent - at.get('run-started')!,
  };
}

const med = (xs: number[]) => percentile(xs, 50);

/** Each phase's median, in start()'s order, with the two ends of the play inside it. */
function phaseWords(runs: RacelabPhases[]): string {
  const phases: RunPhase[] = ['stores', 'lab', 'setup', 'workers', 'play', 'measure', 'cleanup'];
  const words = phases.map((phase) => {
    const shown = `${phase} ${fmt(med(runs.map((r) => r.phases[phase] ?? 0)))}`;
    if (phase !== 'play') return shown;
    return `${shown} (run-started to the first worker event ${fmt(med(runs.map((r) => r.planToFirstEventMs)))}, the last worker event to the last exit ${fmt(med(runs.map((r) => r.tailMs)))})`;
  });
  return words.join(', ');
}

/**
 * A run's floor: the bare script plus what a run keeps on purpose, each part measured in the
 * same round (docs/PERFORMANCE.md, "A run with no work: its floor"): the run's own store users
 * (the run with them less the interleaved run without), its registration and schema (the stores
 * phase without users), its workers' exits (last event to last exit: a verdict is measured only
 * once no process can write), and the scenario's setup beyond the bare script's (its second
 * table: the ground truth of reports built at once). What is left above it is cold code in a
 * fresh process, the IPC and the observers.
 */
function floorOf(racelab: RacelabPhases[], withoutUsers: RacelabPhases[], warm: BarePhases[]): { ratios: number[]; words: string } {
  const parts = racelab.map((r, i) => {
    const bare = warm[i]!;
    const users = Math.max(0, r.totalMs - withoutUsers[i]!.totalMs);
    const registration = withoutUsers[i]!.phases.stores ?? 0;
    const setup = Math.max(0, (r.phases.setup ?? 0) - bare.setupMs);
    return { bare: bare.totalMs, users, registration, exits: r.tailMs, setup };
  });
  const sum = (p: (typeof parts)[number]) => p.bare + p.users + p.registration + p.exits + p.setup;
  const m = (pick: (p: (typeof parts)[number]) => number) => fmt(med(parts.map(pick)));
  return {
    ratios: parts.map((p) => sum(p) / p.bare),
    words:
      `Its floor, with no work (medians of ${parts.length} rounds, ms): the bare script ${m((p) => p.bare)}, ` +
      `plus the run's own store users ${m((p) => p.users)}, its registration and schema ${m((p) => p.registration)}, ` +
      `its workers' exits ${m((p) => p.exits)}, the scenario's setup beyond the bare script's (its second table) ${m((p) => p.setup)}: ${m(sum)} ` +
      `against the run's ${fmt(med(racelab.map((r) => r.totalMs)))}; the rest is cold code in fresh processes, the IPC and the observers.`,
  };
}

/** One run with the run's own store users off (the server's users instead): what making and dropping them costs, measured. */
async function withoutRunUsers<T>(playground: Playground, work: () => Promise<T>): Promise<T> {
  const inside = playground as unknown as { credentialSupport: unknown };
  const kept = inside.credentialSupport;
  inside.credentialSupport = { redisRules: null, postgresRoles: false };
  try {
    return await work();
  } finally {
    inside.credentialSupport = kept;
  }
}
const fmt = (x: number) => x.toFixed(1);

/**
 * The floor under a worker's exit: a Node process that has loaded nothing, asked over IPC to
 * exit, until its parent sees the exit (ms, one sample per process).
 */
async function bareProcessExits(times: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const child = spawn(process.execPath, ['-e', "process.on('message', () => process.exit(0)); process.send('ready')"], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    await new Promise((resolve) => child.once('message', resolve));
    const t0 = performance.now();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('exit');
    await exited;
    out.push(performance.now() - t0);
  }
  return out;
}

export async function benchRunOverhead(redisUrl: string, databaseUrl: string, rounds = 7): Promise<BenchResult> {
  const playground = await Playground.open({ redisUrl, databaseUrl, poolSize: WORKERS });
  const figures: Figure[] = [];
  const notes: string[] = [];
  const firstEvents: number[] = [];
  try {
    for (const workMs of [120, 0]) {
      const options = { redisUrl, databaseUrl, workers: WORKERS, workMs, leaseMs: 30_000 };
      const racelab: RacelabPhases[] = [];
      const warm: BarePhases[] = [];
      const cold: BarePhases[] = [];
      await racelabRun(playground, workMs); // untimed: JIT, connections, scenario modules
      const withoutUsers: RacelabPhases[] = [];
      for (let round = 0; round < rounds; round++) {
        const r = await racelabRun(playground, workMs);
        racelab.push(r);
        if (workMs === 0) withoutUsers.push(await withoutRunUsers(playground, () => racelabRun(playground, workMs)));
        firstEvents.push(r.firstWorkerEventMs);
        const ready: ChildProcess[] = await forkBareWorkers(options, WORKERS);
        warm.push(await bareRun(playground.redis, playground.pg, options, ready));
        cold.push(await bareRun(playground.redis, playground.pg, options, null));
      }
      for (const x of [...racelab, ...warm, ...cold]) if (x.emails !== 1) throw new Error(`a run sent ${x.emails} e-mails, not 1`);
      const label = workMs === 120 ? 'token-lua at defaults (3 workers, workMs 120)' : 'token-lua, no work (3 workers, workMs 0)';
      figures.push(
        { section: SECTION, name: `racelab run, ${label}`, unit: 'ms', samples: racelab.map((r) => r.totalMs), sampleOf: 'run' },
        {
          section: SECTION,
          name: `bare script, warm processes, ${label}`,
          unit: 'ms',
          samples: warm.map((r) => r.totalMs),
          sampleOf: 'run',
        },
        {
          section: SECTION,
          name: `bare script, forking its processes, ${label}`,
          unit: 'ms',
          samples: cold.map((r) => r.totalMs),
          sampleOf: 'run',
        },
        {
          section: SECTION,
          name: `racelab ÷ bare (warm), ${label}`,
          unit: '×',
          samples: racelab.map((r, i) => r.totalMs / warm[i]!.totalMs),
          sampleOf: 'round',
          // With no work a run is only its own bookkeeping, whose floor docs/PERFORMANCE.md measures ("A run with no work").
          target: { stat: 'median', op: '<=', value: workMs === 0 ? 1.5 : 1.1 },
        },
        {
          section: SECTION,
          name: `racelab ÷ bare (forking), ${label}`,
          unit: '×',
          samples: racelab.map((r, i) => r.totalMs / cold[i]!.totalMs),
          sampleOf: 'round',
        },
      );
      notes.push(
        `Where the time goes, ${label} (medians, ms): ` +
          `racelab: setup (run stores, scenario setup, take warm workers) ${fmt(med(racelab.map((r) => r.setupMs)))}, ` +
          `workers (plan sent to last exit) ${fmt(med(racelab.map((r) => r.workersMs)))}, of which after the workers' last event (each closes its connections, says finished, exits) ${fmt(med(racelab.map((r) => r.tailMs)))}, ` +
          `verdict (observers stopped, metrics) ${fmt(med(racelab.map((r) => r.verdictMs)))}, ` +
          `clean-up ${fmt(med(racelab.map((r) => r.cleanupMs)))}; ${med(racelab.map((r) => r.events))} events. ` +
          `Bare: setup ${fmt(med(warm.map((r) => r.setupMs)))}, job ${fmt(med(warm.map((r) => r.jobMs)))}, ` +
          `measure ${fmt(med(warm.map((r) => r.measureMs)))}, clean-up ${fmt(med(warm.map((r) => r.cleanupMs)))}; ` +
          `forking and connecting ${WORKERS} processes when cold: ${fmt(med(cold.map((r) => r.forkMs)))}. ` +
          `The run's own phases (Run.phaseMs): ${phaseWords(racelab)}` +
          (withoutUsers.length > 0
            ? `. The same runs without the run's own store users (no Redis ACL user, no PostgreSQL role: the server's), interleaved: total ${fmt(med(withoutUsers.map((r) => r.totalMs)))}; ${phaseWords(withoutUsers)}.`
            : '.'),
      );
      if (workMs === 0 && withoutUsers.length > 0) {
        const floor = floorOf(racelab, withoutUsers, warm);
        figures.push({
          section: SECTION,
          name: `the run's floor ÷ bare (warm), ${label}`,
          unit: '×',
          samples: floor.ratios,
          sampleOf: 'round',
          note: 'what a run keeps on purpose, measured per round: see below',
        });
        notes.push(floor.words);
      }
      if (withoutUsers.length > 0) {
        figures.push({
          section: SECTION,
          name: `racelab run without the run's own store users, ${label}`,
          unit: 'ms',
          samples: withoutUsers.map((r) => r.totalMs),
          sampleOf: 'run',
        });
      }
    }
    figures.push({
      section: SECTION,
      name: 'run.start() to the first worker event, warm pool',
      unit: 'ms',
      samples: firstEvents,
      sampleOf: 'run',
      target: { stat: 'median', op: '<=', value: 30 },
      note: 'in-process; the first event is job-fired, after the cron barrier of all 3 workers',
    });
  } finally {
    await playground.close();
  }
  const exits = await bareProcessExits(rounds);
  notes.push(
    `What is left beside the bare script is the run's own bookkeeping: run stores and setup in PostgreSQL (DDL), the key and row observers sampling during the run, waiting for the worker processes to exit, and the verdict's reads. ` +
      `A run measures its verdict only once every worker process has exited, so that nothing can write after it: a Node process that has loaded nothing, asked over IPC to exit, is seen gone by its parent after ${fmt(med(exits))} ms (median of ${exits.length}; min ${fmt(Math.min(...exits))}), the kernel's teardown of the process; a worker, with its connections and the catalog loaded, takes longer. ` +
      'The pool forks the replacements for the processes a run took only once that run has ended, so a run never shares the machine with Node processes starting up.',
  );
  notes.unshift(
    'The racelab run is `Playground.prepare` + `run.start()` in the bench process, to its outcome (verdict measured, keys and schema dropped), with the pool warm (3 idle, connected workers) before each run. ' +
      'The bare script does the same steps with plain code (tools/src/bench/bare/): create the schema and the e-mails table, 3 worker processes each SET NX PX, the holder runs the lock-set Lua, sleeps workMs, inserts the e-mail, SREM, Lua compare-and-delete; the others GET the holder; two barriers through the parent as in racelab; then the same reads (count, holders:max, two PTTLs) and the clean-up (SCAN + DEL, DROP SCHEMA). ' +
      '"Warm" bare processes were forked and connected before the timer started, like racelab\'s pool; "forking" ones are forked and connected inside the timed window. ' +
      'Not in the bare script: run events, the key observer (samples the watched keys every 5 ms), the row observer (every 15 ms), and waiting for the worker processes to exit.',
  );
  return { figures, notes };
}

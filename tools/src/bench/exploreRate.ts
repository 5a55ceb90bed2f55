// Explore rate: schedules a second for duplicate-job no-lock with 3 workers, as
// `npm run explore` plays them (real worker processes from the warm pool, real stores, the
// scenario's verdict; EXPLORE_PARALLEL at once). Each sample is one exploration of `budget`
// schedules, from its first start to its last verdict; the pool is warm before it starts.
// Beside it: where a schedule's time goes (each run's Run.phaseMs), how many worker
// processes an exploration used (the warm pool keeps an explored run's workers for the next
// schedule), and the CPU a worker process takes from fork to ready, read from /proc.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { RunEvent } from '@racelab/shared';
import { EXPLORE_PARALLEL, Playground, WORKER_ENTRY, WORKER_EXEC_ARGV, explore, type Run, type RunPhase } from '@racelab/server';
import type { BenchResult, Figure } from './figure.js';
import { poolWarm } from './runOverhead.js';
import { percentile } from './stats.js';

const SECTION = 'Explore';
const WORKERS = 3;
const CLOCK_TICKS_PER_S = 100;
const PHASES: RunPhase[] = ['stores', 'setup', 'workers', 'play', 'measure', 'cleanup'];

/** CPU ms a pooled worker process takes from its fork to "ready" (user plus system, from /proc). */
async function workerStartCpuMs(redisUrl: string, databaseUrl: string): Promise<number> {
  const child = fork(WORKER_ENTRY, [], {
    execArgv: WORKER_EXEC_ARGV,
    env: { ...process.env, RACELAB_REDIS_URL: redisUrl, RACELAB_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  await new Promise<void>((resolve) => child.on('message', (m: { kind?: string }) => m.kind === 'ready' && resolve()));
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  child.kill('SIGKILL');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

const pidsOf = (events: RunEvent[]): number[] => events.flatMap((e) => (e.type === 'worker-started' ? [e.pid] : []));
const fmt = (x: number): string => x.toFixed(0);

export async function benchExploreRate(redisUrl: string, databaseUrl: string, rounds = 3, budget = 12): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const playground = await Playground.open({ redisUrl, databaseUrl, poolSize: WORKERS * EXPLORE_PARALLEL });
  const metrics = playground.catalog.manifests.find((m) => m.id === 'duplicate-job')!.metrics;
  const rates: number[] = [];
  const forks: number[] = [];
  const processes: number[] = [];
  const runs: Run[] = [];
  playground.onRun((run) => void runs.push(run));
  try {
    for (let round = 0; round < rounds; round++) {
      await poolWarm(playground, WORKERS * EXPLORE_PARALLEL, 800);
      const from = runs.length;
      const t0 = performance.now();
      const found = await explore(
        playground,
        {
          scenario: 'duplicate-job',
          variant: 'no-lock',
          params: { workers: WORKERS },
          bound: 2,
          budget,
          timeMs: 600_000,
          faults: { expire: true, kill: true },
          parallel: EXPLORE_PARALLEL,
        },
        metrics,
      );
      if (found.failing.length === 0) throw new Error('the exploration found no failing schedule of no-lock');
      rates.push(found.played.length / ((performance.now() - t0) / 1000));
      processes.push(new Set(runs.slice(from).flatMap((run) => pidsOf(run.events))).size);
      forks.push(await workerStartCpuMs(redisUrl, databaseUrl));
    }
  } finally {
    await playground.close();
  }
  const loadAtEnd = loadavg();
  const phaseMedian = (phase: RunPhase): number =>
    percentile(
      runs.map((run) => run.phaseMs[phase] ?? 0),
      50,
    );
  const figures: Figure[] = [
    {
      section: SECTION,
      name: `schedules a second, duplicate-job no-lock, ${WORKERS} workers, ${EXPLORE_PARALLEL} at once`,
      unit: '/s',
      samples: rates,
      sampleOf: `exploration of ${budget}`,
      target: { stat: 'median', op: '>=', value: 5 },
    },
    {
      section: SECTION,
      name: `worker processes used by an exploration of ${budget} schedules`,
      unit: 'processes',
      samples: processes,
      sampleOf: 'exploration',
      note: `${budget * WORKERS} if every schedule forked its own`,
    },
    { section: SECTION, name: 'CPU of a worker process from fork to ready', unit: 'ms', samples: forks, sampleOf: 'process' },
  ];
  const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
  const notes = [
    `Each sample: \`explore\` over duplicate-job no-lock with workers=3 (bound 2, faults on, budget ${budget}), ${EXPLORE_PARALLEL} schedules at once, the pool warm at the start; as \`npm run explore -- duplicate-job --variant no-lock --param workers=3 --budget ${budget}\` runs it, without the command's own start. An explored run's workers go back to the warm pool when their part ends well (fresh store connections for the next schedule), so a schedule forks a worker only where the one before killed one.`,
    `Measured ${new Date().toISOString()}, load average (1, 5, 15 min) ${load(loadAtStart)} at the start and ${load(loadAtEnd)} at the end. Where a schedule's time goes (Run.phaseMs, medians of the ${runs.length} runs, ms): ${PHASES.map((p) => `${p} ${fmt(phaseMedian(p))}`).join(', ')}.`,
  ];
  return { figures, notes };
}

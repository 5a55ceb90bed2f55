// Explore rate: schedules a second for duplicate-job no-lock with 3 workers, as
// `npm run explore` plays them (real worker processes from the warm pool, real stores, the
// scenario's verdict; EXPLORE_PARALLEL at once). Each sample is one exploration of `budget`
// schedules, from its first start to its last verdict; the pool is warm before it starts.
// Also the CPU a worker process takes to get ready, read from /proc: every schedule forks
// its workers afresh, and that CPU is what bounds the rate on a small machine.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { EXPLORE_PARALLEL, Playground, WORKER_ENTRY, WORKER_EXEC_ARGV, explore } from '@racelab/server';
import type { BenchResult, Figure } from './figure.js';
import { poolWarm } from './runOverhead.js';

const SECTION = 'Explore';
const WORKERS = 3;
const CLOCK_TICKS_PER_S = 100;

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

export async function benchExploreRate(redisUrl: string, databaseUrl: string, rounds = 3, budget = 12): Promise<BenchResult> {
  const playground = await Playground.open({ redisUrl, databaseUrl, poolSize: WORKERS * EXPLORE_PARALLEL });
  const metrics = playground.catalog.manifests.find((m) => m.id === 'duplicate-job')!.metrics;
  const rates: number[] = [];
  const forks: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      await poolWarm(playground, WORKERS * EXPLORE_PARALLEL, 800);
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
      forks.push(await workerStartCpuMs(redisUrl, databaseUrl));
    }
  } finally {
    await playground.close();
  }
  const figures: Figure[] = [
    {
      section: SECTION,
      name: `schedules a second, duplicate-job no-lock, ${WORKERS} workers, ${EXPLORE_PARALLEL} at once`,
      unit: '/s',
      samples: rates,
      sampleOf: `exploration of ${budget}`,
      target: { stat: 'median', op: '>=', value: 5 },
    },
    { section: SECTION, name: 'CPU of a worker process from fork to ready', unit: 'ms', samples: forks, sampleOf: 'process' },
  ];
  const notes = [
    `Each sample: \`explore\` over duplicate-job no-lock with workers=3 (bound 2, faults on, budget ${budget}), ${EXPLORE_PARALLEL} schedules at once, the pool warm at the start; as \`npm run explore -- duplicate-job --variant no-lock --param workers=3 --budget ${budget}\` runs it, without the command's own start. Every schedule forks its ${WORKERS} worker processes afresh (a process serves one run), so a schedule costs at least ${WORKERS} times the fork figure in CPU: on 2 cores that alone bounds the rate near 2 a second, before the run's stores, setup and clean-up.`,
  ];
  return { figures, notes };
}

// Run click to the first worker event, as a page sees it: the real server (node
// server/dist/main.js, warm pool of 4), a WebSocket client in the bench process that
// sends start-run for duplicate-job token-lua at its defaults and stamps the arrival of
// the first event a worker emitted (job-fired, after the run's cron barrier).
import pg from 'pg';
import { DEFAULT_DATABASE_URL } from '@racelab/server';
import type { BenchResult } from './figure.js';
import { percentile } from './stats.js';
import { startServer } from './serverProcess.js';
import { SocketClient } from './socketClient.js';

export async function benchFirstEventOverSocket(reps = 7): Promise<BenchResult> {
  const server = await startServer();
  const firsts: number[] = [];
  const started: number[] = [];
  try {
    const client = await SocketClient.connect(server.url);
    for (let rep = 0; rep <= reps; rep++) {
      await new Promise((r) => setTimeout(r, 1500)); // the pool has forked its replacements
      const run = await client.run('duplicate-job', 'token-lua', {});
      if (rep === 0) continue; // untimed: first run of a fresh server
      firsts.push(run.firstWorkerEventMs);
      started.push(run.runStartedMs);
    }
    client.close();
  } finally {
    await server.stop();
  }
  // What run setup pays in PostgreSQL before any worker starts: DDL commits, each a WAL flush.
  const db = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 1 });
  const ddl = { schema: [] as number[], table: [] as number[], drop: [] as number[] };
  try {
    for (let i = 0; i < 5; i++) {
      const name = `bench_ddl_${process.pid}_${i}`;
      let t = performance.now();
      await db.query(`create schema ${name}`);
      ddl.schema.push(performance.now() - t);
      t = performance.now();
      await db.query(`create table ${name}.emails (id serial primary key, worker text not null)`);
      ddl.table.push(performance.now() - t);
      t = performance.now();
      await db.query(`drop schema ${name} cascade`);
      ddl.drop.push(performance.now() - t);
    }
  } finally {
    await db.end();
  }
  const med = (xs: number[]) => percentile(xs, 50).toFixed(1);
  const gaps = firsts.map((f, i) => f - started[i]!);
  return {
    notes: [
      `Over the WebSocket (medians): start-run → run-started ${med(started)} ms (run's schema created, scenario setup: a table, workers taken from the pool), run-started → first worker event ${med(gaps)} ms ` +
        `(plan over IPC, the worker's SET search_path, the cron barrier of all 3 workers, job-fired back over IPC and the socket). ` +
        `PostgreSQL DDL on this machine, medians of 5: CREATE SCHEMA ${med(ddl.schema)} ms, CREATE TABLE ${med(ddl.table)} ms, DROP SCHEMA … CASCADE ${med(ddl.drop)} ms.`,
    ],
    figures: [
      {
        section: 'Run overhead',
        name: 'start-run sent to the first worker event arriving, over the WebSocket, warm pool',
        unit: 'ms',
        samples: firsts,
        sampleOf: 'run',
        target: { stat: 'median', op: '<=', value: 30 },
      },
      {
        section: 'Run overhead',
        name: 'start-run sent to run-started arriving (setup done, workers taken)',
        unit: 'ms',
        samples: started,
        sampleOf: 'run',
      },
    ],
  };
}

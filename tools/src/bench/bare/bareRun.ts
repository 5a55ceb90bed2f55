// The bare baseline's parent: the same run as racelab's duplicate-job token-lua, as a
// plain script. Setup (schema, table), N worker processes doing the job, the verdict's
// reads (e-mails, largest lock-set, PTTLs) and the clean-up (keys, schema). `forkWarm`
// forks and connects the processes beforehand, as racelab's warm pool does; a cold run
// forks them inside the timed window.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { deleteKeys } from '@racelab/server';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { FromBare, ToBare } from './bareProtocol.js';

const entry = fileURLToPath(new URL('./bareWorker.js', import.meta.url));

export interface BareOptions {
  redisUrl: string;
  databaseUrl: string;
  workers: number;
  workMs: number;
  leaseMs: number;
}

export interface BarePhases {
  totalMs: number;
  /** Forking and connecting the processes (0 when they were warm). */
  forkMs: number;
  setupMs: number;
  jobMs: number;
  measureMs: number;
  cleanupMs: number;
  emails: number;
}

/** Forks `count` bare workers and resolves once each is connected and ready. */
export async function forkBareWorkers(options: BareOptions, count: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = fork(entry, [], {
        env: { ...process.env, BARE_REDIS_URL: options.redisUrl, BARE_DATABASE_URL: options.databaseUrl },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      return new Promise<ChildProcess>((resolve, reject) => {
        child.once('message', (m: FromBare) => (m.kind === 'ready' ? resolve(child) : reject(new Error('bare worker: not ready'))));
        child.once('exit', (code) => reject(new Error(`bare worker exited with ${code}`)));
      });
    }),
  );
}

/** One bare run; `warm` are already forked workers (or null to fork them in the timed window). */
export async function bareRun(redis: Redis, pool: pg.Pool, options: BareOptions, warm: ChildProcess[] | null): Promise<BarePhases> {
  const t0 = performance.now();
  const children = warm ?? (await forkBareWorkers(options, options.workers));
  const t1 = performance.now();
  const id = randomBytes(5).toString('hex');
  const schema = `bare_${id}`;
  const keyPrefix = `racelab-bare:${id}:`;
  const date = new Date().toISOString().slice(0, 10);
  await pool.query(`create schema ${schema}`);
  await pool.query(`create table ${schema}.emails (
      id serial primary key, worker text not null, entity text not null,
      report_date date not null, sent_at timestamptz not null default clock_timestamp())`);
  const t2 = performance.now();

  const arrived = new Map<string, number>();
  await Promise.all(
    children.map(
      (child, i) =>
        new Promise<void>((resolve) => {
          const onMessage = (m: FromBare) => {
            if (m.kind === 'barrier') {
              const n = (arrived.get(m.name) ?? 0) + 1;
              arrived.set(m.name, n);
              if (n === children.length) for (const c of children) c.send({ kind: 'released', barrier: m.name } satisfies ToBare);
            } else if (m.kind === 'done') {
              child.off('message', onMessage);
              resolve();
            }
          };
          child.on('message', onMessage);
          child.send({
            kind: 'go',
            job: { keyPrefix, schema, workerId: `worker-${i + 1}`, date, leaseMs: options.leaseMs, workMs: options.workMs },
          } satisfies ToBare);
        }),
    ),
  );
  const t3 = performance.now();

  const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from ${schema}.emails`);
  await redis.get(`${keyPrefix}holders:max`);
  await Promise.all([`lock:nightly-report`, `lock:nightly-report:acme:${date}`].map((k) => redis.pttl(`${keyPrefix}${k}`)));
  const t4 = performance.now();

  await deleteKeys(redis, `${keyPrefix}*`);
  await pool.query(`drop schema if exists ${schema} cascade`);
  const t5 = performance.now();
  for (const child of children) child.kill('SIGKILL');
  return {
    totalMs: t5 - t0,
    forkMs: t1 - t0,
    setupMs: t2 - t1,
    jobMs: t3 - t2,
    measureMs: t4 - t3,
    cleanupMs: t5 - t4,
    emails: rows[0]?.n ?? 0,
  };
}

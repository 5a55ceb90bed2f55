// The browser benchmarks' server: the real page (web/dist), the real socket server, runs
// and worker processes, offering only the bench emitter scenario. Four extra GET routes
// let a benchmark line up clocks, read when each event was emitted, find its processes
// and open a page of its own:
//   /bench/now       this process's wall clock, ms (performance.timeOrigin + performance.now())
//   /bench/last-run  the last finished run: its start on that clock and every event's atMs
//   /bench/pid       this process's pid (its worker processes are its children)
//   /bench/bare-page an empty page of this origin, for e2e/bench/barePage.ts to fill
// Usage: PORT=7272 node tools/dist/bench/emitter/benchServer.js
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolveParams } from '@racelab/shared';
import {
  createAppServer,
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  manifestOf,
  Playground,
  Run,
  WorkerPool,
  type StartRequest,
  type Started,
} from '@racelab/server';
import emitter from './emitterScenario.js';

const port = Number(process.env.PORT ?? 7272);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
// BENCH_WEB_ROOT: another build of the page, e.g. an unminified one for readable profiles.
const webRoot = process.env.BENCH_WEB_ROOT ?? fileURLToPath(new URL('../../../../web/dist', import.meta.url));
const workerEntry = fileURLToPath(new URL('./emitterWorker.js', import.meta.url));

/** This process's wall clock in ms, at sub-ms resolution. */
const wallMs = (): number => performance.timeOrigin + performance.now();

/** Wall-clock ms of a moment on the host-wide monotonic clock (process.hrtime). */
function wallOfMonotonic(ns: bigint): number {
  return wallMs() - Number(process.hrtime.bigint() - ns) / 1e6;
}

interface RunTiming {
  runId: string;
  /** The run's zero (its startNs) on this process's wall clock. */
  startWallMs: number;
  /** Each note a worker emitted: its text, seq, worker, atMs (the worker's stamp) and when the run appended it (wall ms). */
  notes: { text: string; seq: number; workerId: string; atMs: number; appendedWallMs: number }[];
  verdict: string;
}

const real = await Playground.open({ redisUrl, databaseUrl, poolSize: 0 });
const pool = new WorkerPool({ redisUrl, databaseUrl, size: Number(process.env.BENCH_POOL_SIZE ?? 4), entry: workerEntry });
const manifest = manifestOf(emitter);
let lastRun: RunTiming | null = null;

// What the socket server needs of a Playground: the catalog and prepare().
const benchPlayground = {
  catalog: { scenarios: new Map([[emitter.id, emitter]]), manifests: [manifest] },
  prepare(request: StartRequest): Started {
    if (request.scenario !== emitter.id) return { ok: false, error: `only ${emitter.id} here` };
    const params = resolveParams(manifest, request.variant, request.params);
    if (!params.ok) return params;
    const run = new Run(
      { scenario: emitter, variantId: request.variant, params: params.params, speed: request.speed },
      { pool, redis: real.redis, pg: real.pg, keyspace: null },
    );
    let startWallMs = 0;
    const notes: RunTiming['notes'] = [];
    run.onEvent((event) => {
      // The run sets its time zero just before it appends run-started.
      if (event.type === 'run-started') startWallMs = wallOfMonotonic(run.startedAtNs);
      if (event.workerId !== null && event.type === 'note')
        notes.push({ text: event.text, seq: event.seq, workerId: event.workerId, atMs: event.atMs, appendedWallMs: wallMs() });
      if (event.type === 'run-finished' || event.type === 'run-failed') {
        lastRun = { runId: run.id, startWallMs, notes, verdict: event.type === 'run-finished' ? event.verdict : `error: ${event.message}` };
      }
    });
    return { ok: true, run };
  },
} as unknown as Playground;

const { http, sockets } = createAppServer(benchPlayground, webRoot);
// A benchmark's requests come a run apart (seconds): with Node's 5 s keep-alive, the server
// could close the idle connection just as the next request went out on it (ECONNRESET).
http.keepAliveTimeout = 10 * 60_000;
const appHandler = http.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;
http.removeAllListeners('request');
http.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const json = (body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  if (req.url === '/bench/now') return json({ wallMs: wallMs() });
  if (req.url === '/bench/last-run') return json(lastRun);
  if (req.url === '/bench/pid') return json({ pid: process.pid });
  if (req.url === '/bench/bare-page') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    return void res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare page</title></head><body></body></html>');
  }
  appHandler(req, res);
});
http.listen(port, '127.0.0.1', () => console.log(`bench server on http://127.0.0.1:${port}`));

async function stop(): Promise<void> {
  http.close();
  await sockets.close('bench over');
  await pool.close();
  await real.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

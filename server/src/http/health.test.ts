// The probes and the scrape on a real port, in front of a playground on a Redis of the test's
// own (so it can be frozen with SIGSTOP) and the real PostgreSQL behind a proxy that can
// freeze it: /healthz asks no store, /readyz says which store is silent or that every slot is
// taken and recovers, /metrics is Prometheus text that counts a real run with its verdict and duration.
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL } from '../services/index.js';
import { Playground } from '../runs/playground.js';
import { startFreezableProxy, type FreezableProxy } from '../testing/freezableProxy.js';
import { startPrivateRedis, type PrivateRedis } from '../testing/privateRedis.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';
import { connectClient, isEnd, until } from '../testing/wsClient.js';
import type { Readiness } from './health.js';

let redis: PrivateRedis;
let redisPid: number;
let probe: Redis;
let postgres: FreezableProxy;
let playground: Playground;
let served: ServedApp;

beforeAll(async () => {
  redis = await startPrivateRedis();
  // PostgreSQL through a proxy that can freeze it, without stopping the server others share.
  const databaseUrl = new URL(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  postgres = await startFreezableProxy(Number(databaseUrl.port || 5432));
  databaseUrl.port = String(postgres.port);
  playground = await Playground.open({ redisUrl: redis.url, databaseUrl: databaseUrl.href, poolSize: 2 });
  served = await serveApp(playground);
  probe = new Redis(redis.url);
  redisPid = Number(/process_id:(\d+)/.exec(await probe.info('server'))![1]);
}, 60_000);
afterAll(async () => {
  if (redisPid) process.kill(redisPid, 'SIGCONT');
  postgres?.thaw();
  probe?.disconnect();
  await served?.close();
  await playground?.close();
  await redis?.stop();
  await postgres?.close();
});

function get(app: ServedApp, path: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${app.port}${path}`);
}

/** The status of a GET with this Host header (fetch sends its own Host whatever it is told). */
function statusAs(app: ServedApp, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: app.port, path, headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    })
      .on('error', reject)
      .end();
  });
}

async function readiness(app: ServedApp): Promise<{ status: number; body: Readiness }> {
  const response = await get(app, '/readyz');
  return { status: response.status, body: (await response.json()) as Readiness };
}

/** PING commands the test's Redis has served so far, from anyone. */
async function pingsServed(): Promise<number> {
  return Number(/cmdstat_ping:calls=(\d+)/.exec(await probe.info('commandstats'))?.[1] ?? 0);
}

/** Checks every line of a scrape is Prometheus text (a comment or a sample) and returns the samples. */
// prom-client writes a NaN as "Nan"; Prometheus reads it case-insensitively.
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})?) (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/;
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = sample.exec(line);
    if (!match) throw new Error(`not a line of Prometheus text: ${line}`);
    found.set(match[1]!, Number(match[2]));
  }
  return found;
}

describe('/healthz', () => {
  it('answers ok and asks no store, even while Redis is frozen', async () => {
    await until(async () => (await readiness(served)).status === 200, 'the server is ready', 30_000);
    const before = await pingsServed();
    for (let i = 0; i < 20; i++) {
      const response = await get(served, '/healthz');
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('ok\n');
    }
    expect(await pingsServed()).toBe(before);
    process.kill(redisPid, 'SIGSTOP');
    try {
      const started = performance.now();
      expect((await get(served, '/healthz')).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(400);
    } finally {
      process.kill(redisPid, 'SIGCONT');
    }
  });

  it('answers whatever the Host header names, as a kubelet names a pod', async () => {
    const host = 'racelab.default.svc.cluster.local';
    expect(await statusAs(served, '/healthz', host)).toBe(200);
    expect(await statusAs(served, '/readyz', host)).toBe(200);
    expect(await statusAs(served, '/metrics', host)).toBe(200);
    // The page itself still refuses that host.
    expect(await statusAs(served, '/api/catalog', host)).toBe(403);
  });
});

describe('/readyz', () => {
  it('is ready when both stores answer, the pool is warm and a slot is free', async () => {
    const { status, body } = await readiness(served);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ready: true, reasons: [], slots: { taken: 0, of: 12 }, pool: { target: 2 } });
    expect(Object.keys(body.storesMs).sort()).toEqual(['PostgreSQL', 'Redis']);
  });

  it('is not ready while Redis is frozen, says so, and is ready again once it answers', async () => {
    process.kill(redisPid, 'SIGSTOP');
    try {
      const started = performance.now();
      const { status, body } = await readiness(served);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(status).toBe(503);
      expect(body.ready).toBe(false);
      expect(body.reasons).toEqual([expect.stringMatching(/^Redis not answering \(a ping unanswered for \d+ ms\)$/)]);
      expect(Object.keys(body.storesMs)).toEqual(['PostgreSQL']);
    } finally {
      process.kill(redisPid, 'SIGCONT');
    }
    await until(async () => (await readiness(served)).status === 200, 'ready again once Redis answers', 15_000);
  });

  it('is not ready while PostgreSQL is frozen, says so, and is ready again once it answers', async () => {
    postgres.freeze();
    try {
      const { status, body } = await readiness(served);
      expect(status).toBe(503);
      expect(body.reasons).toEqual([expect.stringMatching(/^PostgreSQL not answering \(a ping unanswered for \d+ ms\)$/)]);
      expect(Object.keys(body.storesMs)).toEqual(['Redis']);
    } finally {
      postgres.thaw();
    }
    await until(async () => (await readiness(served)).status === 200, 'ready again once PostgreSQL answers', 15_000);
  });

  it('shares one ping per store among concurrent probes', async () => {
    const before = await pingsServed();
    const answers = await Promise.all(Array.from({ length: 20 }, () => readiness(served)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // The 20 probes arrive within a few ms and share a few pings, not one each.
    expect((await pingsServed()) - before).toBeLessThan(10);
  });

  it('is not ready while every run slot is taken (and the line as long as it may be): the proxy sends new pages elsewhere', async () => {
    // A server that calls itself full once its slots are taken, however short the line (queue.test.ts: with a line).
    const full = await serveApp(playground, { limits: { maxRunsPerServer: 1, queuedWhenNotReady: 0 } });
    const client = await connectClient(full.url);
    try {
      expect((await readiness(full)).status).toBe(200);
      const accepted = await client.startRun({ scenario: 'duplicate-job', variant: 'no-lock', params: { workMs: 10_000 } });
      const { status, body } = await readiness(full);
      expect(status).toBe(503);
      expect(body.reasons).toEqual(['every run slot taken (1 of 1) and 0 starts in line']);
      client.send({ type: 'cancel-run', runId: accepted.runId });
      await client.next(isEnd(accepted.runId));
      await until(async () => (await readiness(full)).status === 200, 'ready once the run has settled', 30_000);
    } finally {
      client.socket.close();
      await full.close();
    }
  }, 60_000);
});

describe('/metrics', () => {
  it('is Prometheus text that counts a real run with its verdict and duration', async () => {
    // A server of its own: its registry counts only what happens from now on.
    const app = await serveApp(playground);
    const client = await connectClient(app.url);
    try {
      const first = await get(app, '/metrics');
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const before = samples(await first.text());
      expect(before.get('racelab_runs_going')).toBe(0);
      expect(before.get('racelab_runs_queued')).toBe(0);
      expect(before.get('racelab_websocket_connections')).toBe(1);
      expect(before.get('racelab_worker_pool_target')).toBe(2);
      expect(before.get('process_resident_memory_bytes')).toBeGreaterThan(0);
      expect([...before.keys()].some((name) => name.startsWith('racelab_runs_finished_total{'))).toBe(false);

      const accepted = await client.startRun({ scenario: 'duplicate-job', variant: 'no-lock' });
      const end = await client.next(isEnd(accepted.runId));
      expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.verdict).toBe('fail');
      const after = samples(await (await get(app, '/metrics')).text());
      expect(after.get('racelab_runs_finished_total{scenario="duplicate-job",kind="broken",verdict="fail",as_expected="true"}')).toBe(1);
      expect(after.get('racelab_run_duration_seconds_count{scenario="duplicate-job"}')).toBe(1);
      expect(after.get('racelab_run_duration_seconds_sum{scenario="duplicate-job"}')).toBeGreaterThan(0.1);
      // The store watch pinged both stores while the run went.
      expect(after.get('racelab_store_round_trip_seconds_count{store="redis"}')).toBeGreaterThan(0);
      expect(after.get('racelab_store_round_trip_seconds_count{store="postgresql"}')).toBeGreaterThan(0);
    } finally {
      client.socket.close();
      await app.close();
    }
  }, 60_000);

  it('serves concurrent scrapes, each whole', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(served, '/metrics')));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const found = samples(await answer.text());
      expect(found.has('racelab_runs_going')).toBe(true);
      expect(found.has('process_cpu_seconds_total')).toBe(true);
    }
  });

  it('refuses anything but GET and HEAD', async () => {
    const response = await fetch(`http://127.0.0.1:${served.port}/metrics`, { method: 'POST' });
    expect(response.status).toBe(405);
  });
});

// A crowd of browsers on one server: 30 WebSocket clients start a run each at the same
// moment (a mix of duplicate-job and lost-update variants), against the default caps
// (12 runs per server, 2 per page, 48 worker processes, a line of 400). The starts past the
// slots wait in line (run-queued) and start as slots free: none is answered "busy". Each
// must get exactly the metrics and verdict that a lone run of its variant gives; no event of
// one run may appear in another's stream; afterwards no key or schema of any of them remains.
//
// Why the default caps rather than 30 runs at once: 30 runs of 3-4 workers would hold
// ~120 PostgreSQL connections, past max_connections (100) of a stock PostgreSQL; the
// caps exist so that a crowd waits its turn instead of failures for everyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent, ServerMessage } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { play } from '../testing/testPlayground.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { connectClient, isEnd, leftovers } from '../testing/wsClient.js';
import { DEFAULT_LIMITS } from './limits.js';

let playground: Playground;
let url: string;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(4);
  ({ playground, url } = server);
});
afterAll(() => server.close());

const VARIANTS: Array<[string, string]> = [
  ['duplicate-job', 'no-lock'],
  ['duplicate-job', 'setnx-no-expiry'],
  ['duplicate-job', 'setnx-then-expire'],
  ['duplicate-job', 'blind-del'],
  ['duplicate-job', 'wait-for-lock'],
  ['duplicate-job', 'token-lua'],
  ['duplicate-job', 'pg-advisory'],
  ['lost-update', 'read-modify-write'],
  ['lost-update', 'select-for-update'],
  ['lost-update', 'optimistic-version'],
  ['lost-update', 'atomic-update'],
];
const CLIENTS = 30;

interface Outcome {
  runId: string;
  events: RunEvent[];
  foreign: ServerMessage[];
  /** Whether the start waited in line before it got its slot. */
  queued: boolean;
}

/** One browser: starts its run (waiting in line if it must) and keeps its stream to the end. */
async function browser(scenario: string, variant: string, go: Promise<void>): Promise<Outcome> {
  const client = await connectClient(url);
  await client.next((m) => m.type === 'hello');
  await go;
  client.send({ type: 'start-run', requestId: variant, scenario, variant });
  const answer = await client.next((m) => m.type === 'run-accepted' || m.type === 'run-rejected', 120_000);
  if (answer.type !== 'run-accepted') throw new Error(`${scenario}/${variant} was refused: ${JSON.stringify(answer)}`);
  const end = await client.next(isEnd(answer.runId), 120_000);
  const mine = client.inbox.filter((m) => m.type === 'run-event' && m.runId === answer.runId);
  const foreign = client.inbox.filter((m) => m.type === 'run-event' && m.runId !== answer.runId);
  const queued = client.inbox.some((m) => m.type === 'run-queued');
  // next() took the end out of the inbox: it closes the stream.
  const events = [...mine, end].map((m) => (m as { event: RunEvent }).event);
  client.socket.close();
  return { runId: answer.runId, events, foreign, queued };
}

describe('a crowd of browsers', () => {
  it(`${CLIENTS} clients at once get the verdicts they get alone, never each other's events, and leave nothing behind`, async () => {
    // What each variant gives alone.
    const alone = new Map<string, { metrics: unknown; verdict: string }>();
    for (const [scenario, variant] of VARIANTS) {
      const lone = await play(playground, scenario, variant);
      alone.set(`${scenario}/${variant}`, { metrics: lone.metrics, verdict: lone.verdict });
    }

    let release!: () => void;
    const go = new Promise<void>((resolve) => (release = resolve));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, server.app.sockets.directory.active)), 10);
    const started = Date.now();
    const crowd = Array.from({ length: CLIENTS }, (_, i) => VARIANTS[i % VARIANTS.length]!);
    const pending = crowd.map(([scenario, variant]) => browser(scenario, variant, go));
    release();
    const outcomes = await Promise.all(pending);
    clearInterval(sampler);

    for (const [i, outcome] of outcomes.entries()) {
      const [scenario, variant] = crowd[i]!;
      const { events } = outcome;
      expect(outcome.foreign).toEqual([]);
      // The whole stream, numbered in order, ending in a verdict.
      expect(events.map((e) => e.seq)).toEqual(events.map((_, n) => n));
      const first = events[0]!;
      const last = events.at(-1)!;
      expect(first.type === 'run-started' && [first.scenario, first.variant]).toEqual([scenario, variant]);
      expect(last.type === 'run-failed' ? `${scenario}/${variant} failed: ${last.message}` : last.type).toBe('run-finished');
      // Only this run's workers, each its own process.
      const workers = first.type === 'run-started' ? first.workers : [];
      for (const e of events) if (e.workerId !== null) expect(workers).toContain(e.workerId);
      const pids = events.flatMap((e) => (e.type === 'worker-started' ? [e.pid] : []));
      expect(new Set(pids).size).toBe(workers.length);
      // The same numbers as alone.
      expect(last.type === 'run-finished' && { metrics: last.metrics, verdict: last.verdict }).toEqual(alone.get(`${scenario}/${variant}`));
    }
    const runIds = new Set(outcomes.map((o) => o.runId));
    expect(runIds.size).toBe(CLIENTS);
    for (const runId of runIds) await server.app.sockets.directory.get(runId)!.settled;
    for (const runId of runIds) expect(await leftovers(playground.redis, playground.pg, runId)).toEqual({ keys: [], schema: false });
    expect(most).toBeLessThanOrEqual(DEFAULT_LIMITS.maxRunsPerServer);
    const queued = outcomes.filter((o) => o.queued).length;
    // More starts than slots: some surely waited in line.
    expect(queued).toBeGreaterThanOrEqual(CLIENTS - DEFAULT_LIMITS.maxRunsPerServer);
    console.log(`crowd: ${CLIENTS} runs in ${Date.now() - started} ms, at most ${most} at once, ${queued} waited in line`);
  }, 300_000);
});

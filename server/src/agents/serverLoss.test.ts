// The server as `npm start` runs it, its agent port on, SIGKILLed mid-run while a worker on
// an agent is stopped in a planned stall: the agent sees its connection go and kills its
// workers (the stopped one too: SIGCONT, then SIGKILL), stays up, and connects again with
// backoff to the server started again on the same port, which cleans up the dead one's run
// and serves the next run on the agent. Nothing of the agent's outlives its server's run.
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent, ServerMessage } from '@racelab/shared';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { freePort } from '../services/freePort.js';
import { startAgent, stopAgent, type AgentProcess } from '../testing/agentProcess.js';
import { parentOf, processState } from '../testing/processTable.js';
import { startServerProcess } from '../testing/serverProcess.js';
import { alive, connectClient, isEnd, isEvent, leftovers, until } from '../testing/wsClient.js';

const token = randomBytes(16).toString('hex');
// Runs and processes recorded under names of this test's own: other tests' sweeps leave them alone.
const serverHost = `server-loss-test-${randomBytes(4).toString('hex')}`;
const agentEnv = { RACELAB_HOST_ID: `server-loss-agent-${randomBytes(4).toString('hex')}` };
const servers: ChildProcess[] = [];
const agents: AgentProcess[] = [];
const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 2 });
afterAll(async () => {
  for (const server of servers) server.kill('SIGKILL');
  for (const agent of agents) agent.process.kill('SIGKILL');
  redis.disconnect();
  await pool.end();
});

const started = (inbox: ServerMessage[]): Extract<RunEvent, { type: 'worker-started' }>[] =>
  inbox.flatMap((m) => (m.type === 'run-event' && m.event.type === 'worker-started' ? [m.event] : []));

describe('the server killed mid-run, its workers on an agent', () => {
  it('the agent kills them, the stopped one included, and serves the server that comes back', async () => {
    const agentPort = await freePort();
    const env = {
      RACELAB_HOST_ID: serverHost,
      RACELAB_WORKER_AGENTS: String(agentPort),
      RACELAB_AGENT_TOKEN: token,
      RACELAB_POOL_SIZE: '2',
    };
    const first = await startServerProcess(env, servers);
    await until(() => first.output().includes(`worker agents on 127.0.0.1:${agentPort}`), 'the agent port in the log');
    const agent = startAgent({ server: `127.0.0.1:${agentPort}`, name: 'delta', token, env: agentEnv }, agents);
    await until(() => first.output().includes('worker agent delta is in'), 'delta in', 30_000);

    // worker-1 stopped for 10 s in its planned stall, a lease as long: the run is mid-stall for a while.
    const client = await connectClient(`${first.address.replace('http', 'ws')}/ws`);
    await client.next((m) => m.type === 'hello');
    const { runId } = await client.startRun(
      { scenario: 'fencing', variant: 'lease-only', params: { pauseMs: 10_000, leaseMs: 10_000 } },
      60_000,
    );
    const paused = await client.next(isEvent('process-paused', runId), 60_000);
    const workers = started(client.inbox);
    expect(workers.map((w) => [w.workerId, w.host, parentOf(w.pid)])).toEqual([
      ['worker-1', 'delta', agent.process.pid],
      ['worker-2', 'delta', agent.process.pid],
    ]);
    const stopped = workers.find((w) => paused.type === 'run-event' && w.workerId === paused.event.workerId)!.pid;
    await until(() => processState(stopped) === 'T', 'worker-1 stopped on the agent');

    first.server.kill('SIGKILL');
    await new Promise((resolve) => first.server.once('exit', resolve));
    // No one else may touch them (they are the live agent's): the agent itself kills both, and
    // says so once they have exited.
    const lostLine = /racelab agent delta: lost the server \((the connection closed|read ECONNRESET)\); killed its 2 workers/;
    await until(() => lostLine.test(agent.output()), 'the agent says it lost the server', 10_000);
    expect(workers.filter((w) => alive(w.pid))).toEqual([]);
    expect(alive(agent.process.pid!)).toBe(true);

    // The server again, on the same agent port: it sweeps the dead one's run, and the agent comes back by itself.
    const second = await startServerProcess(env, servers);
    expect(await leftovers(redis, pool, runId)).toEqual({ keys: [], schema: false });
    await until(() => second.output().includes('worker agent delta is in'), 'delta in again', 30_000);
    const again = await connectClient(`${second.address.replace('http', 'ws')}/ws`);
    await again.next((m) => m.type === 'hello');
    again.send({ type: 'start-run', requestId: 'r', scenario: 'duplicate-job', variant: 'token-lua', params: {} });
    const next = await again.next((m) => m.type === 'run-accepted', 60_000);
    const nextId = next.type === 'run-accepted' ? next.runId : '';
    const end = await again.next(isEnd(nextId), 60_000);
    expect(end.type === 'run-event' && end.event).toMatchObject({
      type: 'run-finished',
      verdict: 'pass',
      metrics: { emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 },
    });
    expect(started(again.inbox).map((w) => w.host)).toEqual(['delta', 'delta', 'delta']);

    second.server.kill('SIGINT');
    await new Promise((resolve) => second.server.once('exit', resolve));
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
  }, 180_000);
});

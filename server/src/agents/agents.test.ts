// Workers on other hosts, proven without Docker: this test process is the server (a
// playground with its agent port on), and the worker agents are OS processes of their own
// (dist/worker/agent.js), spawned detached with no IPC channel, that reach it over TCP only —
// one of them from inside a network namespace, through the namespace's own link. Their
// workers are the agents' children, not the server's; their faults are real signals sent by
// the agents; an agent whose monotonic clock is another (a time namespace) is refused, and so
// is bad input: a wrong token, a line that is not JSON or too long, a worker message out of
// the protocol mid-run. An agent killed mid-run fails its run in words, and the server goes
// on serving. Against the real Redis and PostgreSQL; every order below is set by the
// scenario's choreography or by waiting for what the processes say, never by timing.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaultRule, RunEvent } from '@racelab/shared';
import { createLabHost, type LabHost } from '../labnet/labHost.js';
import { detectLabMechanisms } from '../labnet/mechanisms.js';
import { startRelay, targetOf, throughRelay, type Relay } from '../labnet/relay.js';
import { Playground } from '../runs/playground.js';
import type { Run, RunOutcome } from '../runs/run.js';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { startAgent, stopAgent, type AgentProcess } from '../testing/agentProcess.js';
import { ROOT_ON_LINUX } from '../testing/machine.js';
import { parentOf, processState } from '../testing/processTable.js';
import { eventsOf } from '../testing/testPlayground.js';
import { alive, until } from '../testing/wsClient.js';
import { AGENT_PROTOCOL, LineReader } from '../worker/agentProtocol.js';

const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const token = randomBytes(16).toString('hex');
// The agents' processes are recorded under a host name of their own: only an agent of this
// test reaps what another left (debris/ownedProcesses.ts), never a sweep of another test.
const agentEnv = { RACELAB_HOST_ID: `agents-test-${randomBytes(4).toString('hex')}` };

let playground: Playground;
const started: AgentProcess[] = [];
const agents = new Map<string, AgentProcess>();
/** Every worker pid any run of this file had, to check none is left at the end. */
const seenWorkers = new Set<number>();
const cleanups: Array<() => Promise<unknown>> = [];
const errorLines: string[] = [];

const agentAddress = (): string => `127.0.0.1:${playground.agents!.port}`;
function agent(name: string, extra: Partial<Parameters<typeof startAgent>[0]> = {}): AgentProcess {
  const started_ = startAgent({ server: agentAddress(), name, token, ...extra, env: { ...agentEnv, ...extra.env } }, started);
  agents.set(name, started_);
  return started_;
}
const agentNames = (): string[] => playground.agents!.agents.map((a) => a.name).sort();
/**
 * Resolves once an agent has printed a line that matches: its output comes through a pipe,
 * which nothing orders with its exit or with what the server sees of it.
 */
const printed = (a: AgentProcess, line: string | RegExp): Promise<void> =>
  until(() => (typeof line === 'string' ? a.output().includes(line) : line.test(a.output())), `${a.name} printed ${String(line)}`, 10_000);

beforeAll(async () => {
  // What the server logs, to check what it says of the agents it refuses (and still printed).
  const original = console.error.bind(console);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errorLines.push(args.map(String).join(' '));
    original(...args);
  });
  playground = await Playground.open({ redisUrl, databaseUrl, poolSize: 2, workerAgents: { port: 0, token } });
  agent('alpha');
  agent('beta');
  await until(() => playground.agents!.count === 2, 'alpha and beta in', 30_000);
});

afterAll(async () => {
  for (const a of started) if (a.process.exitCode === null && a.process.signalCode === null) a.process.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await playground?.close();
  vi.restoreAllMocks();
});

interface Placed {
  workerId: string;
  pid: number;
  host: string | undefined;
  /** Its parent pid, read when it started. */
  parent: number;
}

/** Records where each worker of a run starts, as it starts (it is alive and ready then). */
function placements(run: Run, also: (pid: number) => void = () => undefined): Placed[] {
  const placed: Placed[] = [];
  run.onEvent((e) => {
    if (e.type !== 'worker-started') return;
    // (The protocol breaker below is no agent of ours and has no workers: the pid it names is this process's.)
    // (A worker of this server's own, not an agent's, may go back to its warm pool.)
    if (e.host !== undefined && e.host !== 'mallory') seenWorkers.add(e.pid);
    placed.push({ workerId: e.workerId!, pid: e.pid, host: e.host, parent: parentOf(e.pid) });
    also(e.pid);
  });
  return placed;
}

interface Played {
  run: Run;
  outcome: RunOutcome;
  events: RunEvent[];
  metrics: Record<string, number | string>;
  placed: Placed[];
}

function prepare(scenario: string, variant: string, params: Record<string, unknown> = {}, faults?: FaultRule[]): Run {
  const prepared = playground.prepare({ scenario, variant, params, faults });
  if (!prepared.ok) throw new Error(prepared.error);
  return prepared.run;
}

async function play(scenario: string, variant: string, params: Record<string, unknown> = {}): Promise<Played> {
  const run = prepare(scenario, variant, params);
  const placed = placements(run);
  const outcome = await run.start();
  return {
    run,
    outcome,
    events: run.events,
    metrics: outcome.status === 'finished' ? outcome.metrics : { runFailed: outcome.message },
    placed,
  };
}

/** Every worker ran on an agent, as that agent's child: none was this process's. */
function expectOnAgents(placed: Placed[], names: string[]): void {
  expect(placed.length).toBeGreaterThan(0);
  for (const p of placed) {
    expect(names, `${p.workerId} on ${p.host}`).toContain(p.host);
    expect(p.parent, `${p.workerId}'s parent`).toBe(agents.get(p.host!)!.process.pid);
    expect(p.parent).not.toBe(process.pid);
  }
}

/** Resolves once the run's log has an event of this type (or the run is over, which the caller then sees). */
const reached = (run: Run, type: RunEvent['type']) => until(() => run.events.some((e) => e.type === type) || run.done, type, 60_000);

describe('workers on agents, driven over the network', () => {
  it('the agents are processes of their own with no IPC channel, in their own process groups', () => {
    for (const name of ['alpha', 'beta']) {
      const a = agents.get(name)!;
      expect(a.process.channel).toBeUndefined();
      expect(a.process.connected).toBe(false);
      expect(
        execFileSync('ps', ['-o', 'pgid=', '-p', String(a.process.pid)])
          .toString()
          .trim(),
      ).toBe(String(a.process.pid));
    }
    expect(agentNames()).toEqual(['alpha', 'beta']);
  });

  it('duplicate-job: no-lock sends 3 e-mails, token-lua 1, every worker a child of an agent', async () => {
    const broken = await play('duplicate-job', 'no-lock');
    expect(broken.metrics).toEqual({ emailsSent: 3, maxConcurrentHolders: 3, lockTtlAfterRunMs: -2 });
    expect(broken.outcome).toMatchObject({ status: 'finished', verdict: 'fail' });
    expectOnAgents(broken.placed, ['alpha', 'beta']);
    expect(broken.placed.map((p) => p.workerId).sort()).toEqual(['worker-1', 'worker-2', 'worker-3']);

    const correct = await play('duplicate-job', 'token-lua');
    expect(correct.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(correct.outcome).toMatchObject({ status: 'finished', verdict: 'pass' });
    expectOnAgents(correct.placed, ['alpha', 'beta']);
    // The timeline says where each worker ran.
    expect(eventsOf(correct.events, 'worker-started').map((e) => e.host)).toEqual(correct.placed.map((p) => p.host));
  });

  it("fencing: worker-1's stall is a real SIGSTOP its agent sends; lease-only fails, fenced passes", async () => {
    const run = prepare('fencing', 'lease-only');
    let stoppedSeen = false;
    let poll: NodeJS.Timeout | undefined;
    const placed = placements(run);
    run.onEvent((e) => {
      if (e.type === 'process-paused' && e.workerId === 'worker-1') {
        const pid = placed.find((p) => p.workerId === 'worker-1')!.pid;
        // The agent stops it on its host a moment after the server asked: look until it is.
        poll = setInterval(() => {
          if (alive(pid) && processState(pid) === 'T') {
            stoppedSeen = true;
            clearInterval(poll);
          }
        }, 5);
      }
      if (e.type === 'process-resumed') clearInterval(poll);
    });
    const outcome = await run.start();
    clearInterval(poll);
    expect(outcome).toMatchObject({
      status: 'finished',
      verdict: 'fail',
      metrics: { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalFence: 1, finalWriter: 'worker-1' },
    });
    expect(eventsOf(run.events, 'process-paused', 'worker-1')).toEqual([expect.objectContaining({ plannedMs: 2500 })]);
    expect(stoppedSeen).toBe(true);
    expectOnAgents(placed, ['alpha', 'beta']);
    // worker-2 got the lease while worker-1 was stopped, and wrote before it woke up.
    const resumed = eventsOf(run.events, 'process-resumed', 'worker-1')[0]!;
    expect(eventsOf(run.events, 'write-accepted', 'worker-2')[0]!.atMs).toBeLessThan(resumed.atMs);

    const fenced = await play('fencing', 'fenced');
    expect(fenced.metrics).toEqual({
      maxConcurrentHolders: 2,
      finalFence: 2,
      finalWriter: 'worker-2',
      staleWritesAccepted: 0,
      staleWritesRejected: 1,
    });
    expect(fenced.outcome).toMatchObject({ status: 'finished', verdict: 'pass' });
    expectOnAgents(fenced.placed, ['alpha', 'beta']);
  });

  it("the page's pause, resume and kill reach the worker on its agent's host", async () => {
    const run = prepare('duplicate-job', 'token-lua', { workMs: 8000 });
    const placed = placements(run);
    const outcome = run.start();
    await reached(run, 'work-started');
    const holder = eventsOf(run.events, 'work-started')[0]!.workerId!;
    const { pid } = placed.find((p) => p.workerId === holder)!;
    expect(run.fault(holder, 'pause')).toBeUndefined();
    await until(() => processState(pid) === 'T', `${holder} stopped on its agent's host`);
    expect(run.fault(holder, 'resume')).toBeUndefined();
    await until(() => processState(pid) !== 'T', `${holder} running again`);
    expect(run.fault(holder, 'kill')).toBeUndefined();
    expect(await outcome).toMatchObject({ status: 'finished' });
    expect(eventsOf(run.events, 'process-killed', holder)).toHaveLength(1);
    expect(eventsOf(run.events, 'worker-exited', holder)).toEqual([expect.objectContaining({ code: null, signal: 'SIGKILL' })]);
    expect(alive(pid)).toBe(false);
    expectOnAgents(placed, ['alpha', 'beta']);
  });

  it("a scenario whose workers reach this server's own services forks them here, and the log says so", async () => {
    const played = await play('token-stampede', 'single-flight-lock-cache');
    expect(played.metrics).toEqual({ refreshCalls: 1, requestsOk: 50, requestsFailed: 0 });
    expect(played.placed.map((p) => [p.host, p.parent])).toEqual(played.placed.map(() => [undefined, process.pid]));
    expect(errorLines).toContainEqual(
      "racelab: a run's workers are this server's own processes, not the agents': token-stampede's token provider listens on this server's loopback",
    );
  });
});

/** Connects to the agent port, sends `data`, and resolves with all the server said before it closed. */
async function exchange(data: string | Buffer): Promise<string> {
  const socket = net.connect(playground.agents!.port, '127.0.0.1');
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(data);
  await new Promise((resolve) => socket.once('close', resolve));
  return received;
}

const refused = (reason: string, final = true): string => `${JSON.stringify({ kind: 'refused', reason, final })}\n`;

describe('bad input from an agent', () => {
  it('a line that is not JSON, too long, or not a hello first is refused in words, and the connection closed', async () => {
    expect(await exchange('not json\n')).toBe(refused('it sent a line that is not JSON'));
    expect(await exchange(Buffer.alloc(5000, 'x'))).toBe(refused('it sent a line longer than 4096 bytes'));
    expect(await exchange('{"kind":"started","ref":1,"pid":1}\n')).toBe(refused("it sent 'started' before its hello"));
    const hello = { kind: 'hello', protocol: AGENT_PROTOCOL, token: 'not-the-token-at-all', name: 'mallory', slots: 4 };
    expect(await exchange(`${JSON.stringify(hello)}\n`)).toBe(refused('wrong token'));
    expect(await exchange(`${JSON.stringify({ ...hello, token, protocol: 99 })}\n`)).toBe(
      refused(`it speaks agent protocol 99; this server speaks ${AGENT_PROTOCOL}`),
    );
    expect(agentNames()).toEqual(['alpha', 'beta']);
  });

  it('an agent with a wrong token is refused and exits, saying why; the server logs it', async () => {
    const wrong = startAgent({ server: agentAddress(), name: 'intruder', token: 'a-token-that-is-wrong', env: agentEnv }, started);
    expect(await wrong.exited).toEqual({ code: 2, signal: null });
    await printed(wrong, 'racelab agent intruder: the server refused this agent: wrong token');
    expect(errorLines.some((l) => /^racelab: refused worker agent intruder from 127\.0\.0\.1:\d+: wrong token$/.test(l))).toBe(true);
    expect(agentNames()).toEqual(['alpha', 'beta']);
  });

  it('an agent that breaks the protocol mid-run is dropped: the run fails naming the worker and the agent; the next run passes', async () => {
    // An agent of this test's own making: it says the right things until a worker gets its plan.
    const socket = net.connect(playground.agents!.port, '127.0.0.1');
    cleanups.push(async () => socket.destroy());
    const reader = new LineReader(1 << 20);
    const write = (message: object): void => void socket.write(`${JSON.stringify(message)}\n`);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      for (const line of reader.push(chunk)) {
        const m = JSON.parse(line) as { kind: string; id?: number; ref?: number; message?: { kind: string } };
        if (m.kind === 'probe') write({ kind: 'clock', id: m.id, monotonicNs: process.hrtime.bigint().toString() });
        if (m.kind === 'start') {
          write({ kind: 'started', ref: m.ref, pid: process.pid });
          write({ kind: 'from-worker', ref: m.ref, message: { kind: 'ready' } });
        }
        if (m.kind === 'to-worker' && m.message?.kind === 'plan') write({ kind: 'from-worker', ref: m.ref, message: { kind: 'sabotage' } });
      }
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    // More free slots than alpha and beta together: the run's workers beyond the warm ones start here.
    write({ kind: 'hello', protocol: AGENT_PROTOCOL, token, name: 'mallory', slots: 64 });
    await until(() => agentNames().includes('mallory'), 'mallory in');

    const broken = await play('duplicate-job', 'token-lua');
    expect(broken.outcome.status).toBe('failed');
    const message = broken.outcome.status === 'failed' ? broken.outcome.message : '';
    const named =
      /^(worker-\d) \(pid (\d+) on agent mallory\) was lost with its agent mallory: it sent a 'from-worker' message that is not well formed$/.exec(
        message,
      );
    expect(named, message).not.toBeNull();
    expect(broken.placed).toContainEqual(expect.objectContaining({ workerId: named![1], pid: Number(named![2]), host: 'mallory' }));
    expect(agentNames()).toEqual(['alpha', 'beta']);
    expect(errorLines).toContainEqual(
      expect.stringMatching(/^racelab: worker agent mallory \(127\.0\.0\.1:\d+\) dropped: it sent a 'from-worker'/),
    );

    const next = await play('duplicate-job', 'token-lua');
    expect(next.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expectOnAgents(next.placed, ['alpha', 'beta']);
  });
});

describe.runIf(ROOT_ON_LINUX)(
  "an agent whose monotonic clock is not the server's (runs as root on Linux, which gives time namespaces)",
  () => {
    it('is refused, in the log and to the agent, which exits: a time namespace moves its clock a day ahead', async () => {
      // A time namespace is what a container gets that does not share the server's clock: the
      // kernel adds its offset to CLOCK_MONOTONIC for every process inside.
      const skewed = agent('skewed', { wrap: (argv) => ['unshare', '--time', '--monotonic', '86400', '--fork', ...argv] });
      expect(await skewed.exited).toEqual({ code: 2, signal: null });
      await printed(
        skewed,
        /the server refused this agent: its monotonic clock is not this server's: it read \d+\.\d{3} s while this server read between \d+\.\d{3} s and \d+\.\d{3} s \(86(399|400)\.\d{3} s ahead\); its workers would stamp the timeline wrong/,
      );
      expect(errorLines).toContainEqual(
        expect.stringMatching(/^racelab: refused worker agent skewed from 127\.0\.0\.1:\d+: its monotonic clock is not this server's/),
      );
      expect(agentNames()).toEqual(['alpha', 'beta']);
    });
  },
);

describe.skipIf(ROOT_ON_LINUX)(
  "an agent whose monotonic clock is not the server's, on a machine that gives no time namespaces (runs unless root on Linux)",
  () => {
    it('cannot be made here: unshare --time is refused without root', () => {
      expect(() => execFileSync('unshare', ['--time', '--monotonic', '86400', '--fork', 'true'], { stdio: 'ignore' })).toThrow();
    });
  },
);

describe('an agent killed mid-run', () => {
  it('fails the run naming the worker and the agent; a worker it left stopped is stopped by the next agent there; the server serves on', async () => {
    const run = prepare('duplicate-job', 'token-lua', { workMs: 8000 });
    const placed = placements(run);
    const outcome = run.start();
    await reached(run, 'work-started');
    const holder = eventsOf(run.events, 'work-started')[0]!.workerId!;
    const { pid, host } = placed.find((p) => p.workerId === holder)!;
    expect(run.fault(holder, 'pause')).toBeUndefined();
    await until(() => processState(pid) === 'T', `${holder} stopped on its agent's host`);
    const doomed = agents.get(host!)!;
    doomed.process.kill('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const result = await outcome;
    expect(result.status).toBe('failed');
    const message = result.status === 'failed' ? result.message : '';
    const named = new RegExp(
      `^(worker-\\d) \\(pid (\\d+) on agent ${host}\\) was lost with its agent ${host}: (the connection closed|read ECONNRESET)$`,
    ).exec(message);
    expect(named, message).not.toBeNull();
    expect(placed).toContainEqual(expect.objectContaining({ workerId: named![1], pid: Number(named![2]), host }));
    await run.settled;
    expect(agentNames()).toEqual(['alpha', 'beta'].filter((n) => n !== host));
    // Its workers that ran saw the agent go (IPC) and exited; the stopped one cannot notice.
    const others = placed.filter((p) => p.host === host && p.pid !== pid).map((p) => p.pid);
    await until(() => !others.some(alive), "the dead agent's running workers gone");
    expect(processState(pid)).toBe('T');

    // The next agent on that host stops what the dead one left, before it connects.
    const successor = agent(host!);
    await until(() => agentNames().includes(host!), `${host} in again`, 30_000);
    await printed(successor, `stopped what an earlier racelab process here left: worker process of agent ${host} (pid ${pid})`);
    expect(alive(pid)).toBe(false);

    const next = await play('duplicate-job', 'token-lua');
    expect(next.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expectOnAgents(next.placed, ['alpha', 'beta']);
  });
});

const mechanisms = detectLabMechanisms();
describe.runIf(mechanisms.namespaces)(
  'an agent in a network namespace of its own (runs where the machine gives network namespaces)',
  () => {
    it('reaches the server and the stores only over its link, and its workers run there', async () => {
      // alpha and beta go: the run's workers can only be the namespaced agent's.
      for (const name of ['alpha', 'beta']) expect(await stopAgent(agents.get(name)!)).toEqual({ code: 0, signal: null });
      await until(() => playground.agents!.count === 0, 'alpha and beta gone');

      const host: LabHost = await createLabHost('agent gamma');
      cleanups.push(() => host.close());
      const relays: Relay[] = await Promise.all([
        startRelay(host.hostAddress, { host: '127.0.0.1', port: playground.agents!.port }),
        startRelay(host.hostAddress, targetOf(redisUrl, 6379)),
        startRelay(host.hostAddress, targetOf(databaseUrl, 5432)),
      ]);
      cleanups.push(() => Promise.all(relays.map((r) => r.close())));
      const [toServer, toRedis, toPostgres] = relays as [Relay, Relay, Relay];
      const gamma = agent('gamma', {
        server: `${toServer.host}:${toServer.port}`,
        wrap: host.wrap,
        env: { REDIS_URL: throughRelay(redisUrl, toRedis), DATABASE_URL: throughRelay(databaseUrl, toPostgres) },
      });
      await until(() => agentNames().includes('gamma'), 'gamma in', 30_000);
      await printed(gamma, "stores: this host's REDIS_URL and this host's DATABASE_URL");

      const run = prepare('duplicate-job', 'token-lua');
      const namespaces: string[] = [];
      const placed = placements(run, (pid) =>
        namespaces.push(
          execFileSync('ip', ['netns', 'identify', String(pid)])
            .toString()
            .trim(),
        ),
      );
      const outcome = await run.start();
      expect(outcome).toMatchObject({ status: 'finished', verdict: 'pass', metrics: { emailsSent: 1, maxConcurrentHolders: 1 } });
      expectOnAgents(placed, ['gamma']);
      expect(namespaces).toEqual(placed.map(() => host.namespace));
      expect(await stopAgent(gamma)).toEqual({ code: 0, signal: null });
    });
  },
);

describe.skipIf(mechanisms.namespaces)(
  'an agent in a network namespace of its own, on a machine that gives none (runs where it gives no network namespaces)',
  () => {
    it('cannot be made here, and the machine says why', async () => {
      expect(mechanisms.why.length).toBeGreaterThan(0);
      await expect(createLabHost('agent gamma')).rejects.toThrow(/netns add/);
    });
  },
);

describe('with no agent connected', () => {
  it("a run's workers are this server's own children again, and no worker of any agent is left", async () => {
    for (const a of started) await stopAgent(a);
    await until(() => playground.agents!.count === 0, 'every agent gone');
    const played = await play('duplicate-job', 'token-lua');
    expect(played.metrics).toEqual({ emailsSent: 1, maxConcurrentHolders: 1, lockTtlAfterRunMs: -2 });
    expect(played.placed.map((p) => [p.host, p.parent])).toEqual(played.placed.map(() => [undefined, process.pid]));
    // Every agent stopped when told (or was killed by this test, or refused), and took its workers with it.
    expect(started.map((a) => a.process.exitCode ?? a.process.signalCode)).not.toContain(null);
    await until(() => ![...seenWorkers].some(alive), 'every worker gone', 10_000).catch(() => undefined);
    expect([...seenWorkers].filter(alive)).toEqual([]);
  });
});

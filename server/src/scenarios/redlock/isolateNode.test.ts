// "Isolate node-4": one of redlock's five Redis nodes cut from every worker, live from the
// page or at a plan's checkpoint, until it rejoins (live, or the plan's ms run out) or the
// run ends. Where the workers are lab hosts the cut is the kernel's (an nftables drop in
// each worker's namespace): from a worker's namespace the node's address goes silent while
// another node answers, and the server's own connections answer both; its rejoin lifts that
// rule, and what an old connection sent meanwhile arrives (TCP sends it again). Elsewhere
// each worker's own link to the node turns into a blackhole that holds what it is sent,
// and back into a link that delivers it. Either way a split's worker-2, left two nodes,
// gets no majority while node-4 is cut, and gets one once it has rejoined.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule, RunEvent } from '@racelab/shared';
import { racelabNamespaces } from '../../debris/namespaces.js';
import { createLabHost, NAMESPACE_PREFIX, type LabHost } from '../../labnet/labHost.js';
import { detectLabMechanisms, MECHANISM } from '../../labnet/mechanisms.js';
import type { Playground } from '../../runs/playground.js';
import { KERNEL_HAS_NETEM, ROOT_ON_LINUX } from '../../testing/machine.js';
import { openBothWays, REDLOCK_SPLIT, WORKER_1_ALONE } from '../../testing/redlockSplit.js';
import { connectFrom, pingFrom } from '../../testing/pingFrom.js';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { startLink } from './blackhole.js';
import { startCluster, type Cluster } from './cluster.js';
import { delayRelayUrlKey, nodeUrlKey, viewUrlKey } from './keys.js';
import { silentFor } from './silence.js';

const real = detectLabMechanisms();
const forcedOff = detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' });
const kernel = real.namespaces && real.nftables;
/** An isolation or a rejoin of `node` as the kernel plays it for `worker`, with its words ("node-5 from"). */
const staged = (fault: 'isolation' | 'rejoin', words: string, node: string, worker: string) => ({
  fault,
  target: `${words} ${worker}`,
  mechanism: MECHANISM.nftables,
  node,
  peer: null,
  worker,
  slowdown: null,
  workerId: worker,
});
const port = (url: string | number | undefined): number => Number(new URL(String(url)).port);

it('the machine cuts a node in the kernel as root on Linux gives it (namespaces and nftables), and by the proxy elsewhere', () => {
  expect(kernel).toBe(ROOT_ON_LINUX);
});

describe("a worker's own link to a node, where the kernel does not cut", () => {
  it('passes both ways until cut; then its connections, old and new, go silent while the node answers its other clients', async () => {
    const node = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 0 });
    const link = await startLink(`redis://127.0.0.1:${node.options.port}`);
    const through = new Redis(link.url, { maxRetriesPerRequest: 0, commandTimeout: 700 });
    try {
      expect(await through.ping()).toBe('PONG');
      link.cut();
      await expect(through.ping()).rejects.toThrow(/Command timed out/);
      const fresh = new Redis(link.url, { maxRetriesPerRequest: 0, commandTimeout: 700 });
      await expect(fresh.ping()).rejects.toThrow(/Command timed out/);
      fresh.disconnect();
      expect(await node.ping()).toBe('PONG');
    } finally {
      through.disconnect();
      node.disconnect();
      await link.close();
    }
  });

  it('rejoined, delivers what it held, in order, and passes again: the old connection and one made while cut both reach the node', async () => {
    const node = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 0 });
    const link = await startLink(`redis://127.0.0.1:${node.options.port}`);
    const key = `racelab-test:${randomBytes(4).toString('hex')}:held`;
    // No client timeout here: what a request sent while cut becomes is the link's to say.
    const through = new Redis(link.url, { maxRetriesPerRequest: 0 });
    let during: Redis | undefined;
    try {
      expect(await through.ping()).toBe('PONG');
      link.cut();
      const held = [through.set(key, 'first'), through.append(key, ', second')];
      during = new Redis(link.url, { maxRetriesPerRequest: 0 });
      const heldPing = during.ping();
      // Held, not passed: after 700 ms of silence nothing of it has reached the node.
      expect(await Promise.race([Promise.all(held), heldPing, silentFor(700)])).toBeNull();
      expect(await node.exists(key)).toBe(0);
      link.rejoin();
      expect(await Promise.all(held)).toEqual(['OK', 13]);
      expect(await node.get(key)).toBe('first, second');
      expect(await heldPing).toBe('PONG');
      expect(await through.ping()).toBe('PONG');
      const fresh = new Redis(link.url, { maxRetriesPerRequest: 0, commandTimeout: 5000 });
      expect(await fresh.ping()).toBe('PONG');
      fresh.disconnect();
    } finally {
      await node.del(key);
      through.disconnect();
      during?.disconnect();
      node.disconnect();
      await link.close();
    }
  });
});

describe.runIf(kernel)(
  'an isolated node, where the workers are lab hosts (runs where the machine gives network namespaces and nftables)',
  () => {
    let hosts: LabHost[];
    let cluster: Cluster;
    let own: Redis[];
    beforeAll(async () => {
      hosts = [await createLabHost('worker-1'), await createLabHost('worker-2')];
      const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      // The cluster's stores: only its grant watch uses them, and no lock is taken here.
      const prefix = `racelab-test:${randomBytes(4).toString('hex')}:`;
      const stores = { redis, key: (name: string) => prefix + name, sql: () => Promise.reject(new Error('no SQL here')) };
      cluster = await startCluster(stores, {
        reach: 'all',
        workerIds: ['worker-1', 'worker-2'],
        hosts: { 'worker-1': hosts[0]!, 'worker-2': hosts[1]! },
        clockJumpMs: 0,
        lockKey: 'lock:document',
        mechanisms: real,
      });
      own = [3, 4].map((i) => new Redis(String(cluster.shared[nodeUrlKey(i)]), { maxRetriesPerRequest: 0, commandTimeout: 2000 }));
      redis.disconnect();
    });
    afterAll(async () => {
      for (const client of own ?? []) client.disconnect();
      await cluster?.close();
      await Promise.all((hosts ?? []).map((host) => host.close()));
    });

    it("is silent from each worker's namespace, while another node and the server's own connections answer", async () => {
      const [node4, node5] = [port(cluster.shared[nodeUrlKey(3)]), port(cluster.shared[nodeUrlKey(4)])];
      for (const host of hosts) expect(await pingFrom(host, host.hostAddress, node5, 2000)).toBe('PONG');
      const { faults } = await cluster.isolate['node-5']!();
      expect(faults).toEqual(['worker-1', 'worker-2'].map((w) => staged('isolation', 'node-5 from', 'node-5', w)));
      for (const host of hosts) {
        expect(await pingFrom(host, host.hostAddress, node5, 700)).toBe('timeout');
        // The delay relay the worker reaches node-5 through (where netem does not play a slow) is cut with it; node-4's is not.
        // (This kernel has no netem: machine.ts.)
        expect(await real.netem()).toBe(KERNEL_HAS_NETEM);
        const delayRelayPort = (i: number): number => port(cluster.shared[delayRelayUrlKey(host.name, i)]);
        expect(await pingFrom(host, host.hostAddress, delayRelayPort(4), 700)).toBe('timeout');
        expect(await pingFrom(host, host.hostAddress, delayRelayPort(3), 2000)).toBe('PONG');
        expect(await pingFrom(host, host.hostAddress, node4, 2000)).toBe('PONG');
        // node-5 decides the choreography where every node is in reach: the harness's own view passes a relay beside it.
        const view = port(cluster.shared[viewUrlKey(host.name, 4)]);
        expect(view).not.toBe(node5);
        expect(await pingFrom(host, host.hostAddress, view, 2000)).toBe('PONG');
      }
      expect(await Promise.all(own.map((client) => client.ping()))).toEqual(['PONG', 'PONG']);
    });

    it("rejoined, answers each worker's namespace again: what an old connection sent while cut arrives, and new ones answer", async () => {
      const node4 = port(cluster.shared[nodeUrlKey(3)]);
      const keys = hosts.map((host) => `racelab-test:${randomBytes(4).toString('hex')}:${host.name}`);
      const old = await Promise.all(hosts.map((host) => connectFrom(host, host.hostAddress, node4)));
      try {
        for (const connection of old) connection.send('PING');
        expect(await Promise.all(old.map((connection) => connection.reply(2000)))).toEqual(['PONG', 'PONG']);
        const cut = await cluster.isolate['node-4']!();
        // Sent while cut: dropped by the kernel, so after 700 ms nothing has come back, nor reached the node.
        old.forEach((connection, k) => connection.send(`SET ${keys[k]} sent-while-cut`));
        expect(await Promise.all(old.map((connection) => connection.reply(700)))).toEqual(['timeout', 'timeout']);
        expect(await own[0]!.exists(...keys)).toBe(0);
        expect(await Promise.all(hosts.map((host) => pingFrom(host, host.hostAddress, node4, 700)))).toEqual(['timeout', 'timeout']);

        expect(await cut.rejoin()).toEqual(['worker-1', 'worker-2'].map((w) => staged('rejoin', 'node-4 to', 'node-4', w)));
        // TCP sends the dropped bytes again: at its next retransmission, seconds at most after a cut this short.
        expect(await Promise.all(old.map((connection) => connection.reply(30_000)))).toEqual(['OK', 'OK']);
        expect(await own[0]!.mget(...keys)).toEqual(['sent-while-cut', 'sent-while-cut']);
        for (const connection of old) connection.send('PING');
        expect(await Promise.all(old.map((connection) => connection.reply(30_000)))).toEqual(['PONG', 'PONG']);
        expect(await Promise.all(hosts.map((host) => pingFrom(host, host.hostAddress, node4, 2000)))).toEqual(['PONG', 'PONG']);
        // node-5's cut is its own: node-4's rejoin lifted node-4's rules only.
        const node5 = port(cluster.shared[nodeUrlKey(4)]);
        expect(await Promise.all(hosts.map((host) => pingFrom(host, host.hostAddress, node5, 700)))).toEqual(['timeout', 'timeout']);
      } finally {
        await Promise.all(old.map((connection) => connection.close()));
        await own[0]!.del(...keys);
      }
    });
  },
);

let machine: Playground;
let fallback: Playground;
beforeAll(async () => {
  [machine, fallback] = await openBothWays(forcedOff);
});
afterAll(async () => {
  await Promise.all([machine?.close(), fallback?.close()]);
});

// The split (REDLOCK_SPLIT): worker-2 reaches nodes 3–5, so with node-4 cut it is left two and gets no majority.
/**
 * The split's own story, as with no isolation at all: worker-2 takes a majority (node-3,
 * node-4, node-5) once worker-1's lease is over, and stopped worker-1's write lands after its.
 */
const TWO_HOLDERS = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };
const isolations = (events: RunEvent[]) => eventsOf(events, 'fault-staged').filter((e) => e.fault === 'isolation');
const rejoins = (events: RunEvent[]) => eventsOf(events, 'fault-staged').filter((e) => e.fault === 'rejoin');
const mechanismOf = (playground: Playground): string => (playground === machine && kernel ? MECHANISM.nftables : MECHANISM.proxy);

function checkIsolated(events: RunEvent[], mechanism: string, variant = 'redlock'): void {
  expect(isolations(events).map((e) => [e.workerId, e.target, e.mechanism])).toEqual([
    ['worker-1', 'node-4 from worker-1', mechanism],
    ['worker-2', 'node-4 from worker-2', mechanism],
  ]);
  expect(eventsOf(events, 'run-started')[0]!.nodes).toEqual(['node-1', 'node-2', 'node-3', 'node-4', 'node-5']);
  // The hand-written Redlock says which nodes said yes; a library only that it got no majority.
  expect(eventsOf(events, 'note', 'worker-2').map((e) => e.text)).toEqual(
    variant === 'redlock' ? [expect.stringMatching(/^2 of 5 nodes said yes \(node-3, node-5\)/)] : [],
  );
  expect(eventsOf(events, 'job-skipped', 'worker-2')).toHaveLength(1);
}

/** node-4 was cut from both workers and rejoined both before worker-2 asked, and worker-2 got its majority. */
function checkRejoined(events: RunEvent[], mechanism: string, variant = 'redlock'): void {
  const both = (words: string) => [
    ['worker-1', `node-4 ${words} worker-1`, mechanism],
    ['worker-2', `node-4 ${words} worker-2`, mechanism],
  ];
  expect(isolations(events).map((e) => [e.workerId, e.target, e.mechanism])).toEqual(both('from'));
  expect(rejoins(events).map((e) => [e.workerId, e.target, e.mechanism])).toEqual(both('to'));
  // The window the choreography leaves: worker-2 asks once worker-1's lease is over, long after the rejoin.
  const asked = eventsOf(events, 'lease-requested', 'worker-2')[0]!;
  expect(asked.seq).toBeGreaterThan(rejoins(events)[1]!.seq);
  // The hand-written Redlock says which nodes said yes; a library only that it got the lock.
  expect(eventsOf(events, 'note', 'worker-2').map((e) => e.text)).toEqual(
    variant === 'redlock' ? [expect.stringMatching(/^3 of 5 nodes said yes \(node-3, node-4, node-5\)/)] : [],
  );
  expect(eventsOf(events, 'job-skipped', 'worker-2')).toEqual([]);
}

/** A split's redlock run, started, once worker-1 is stopped in its pause (holding its lock). */
async function splitWithWorker1Stopped(playground: Playground) {
  const prepared = playground.prepare({ scenario: 'redlock', variant: 'redlock', params: REDLOCK_SPLIT });
  if (!prepared.ok) throw new Error(prepared.error);
  const { run } = prepared;
  const finished = run.start();
  await expect.poll(() => eventsOf(run.events, 'process-paused', 'worker-1').length, { timeout: 20_000 }).toBe(1);
  return { run, finished };
}

describe('isolating node-4 in a run', () => {
  const isolateAtGrant: FaultRule[] = [{ checkpoint: 'after-grant', target: 'worker-1', action: 'isolate', node: 'node-4' }];

  for (const variant of ['redlock', 'lib-redlock']) {
    it(`${variant}, at worker-1's grant in a plan: worker-2 gets no majority, on the kernel's cut and on the proxy's alike`, async () => {
      const played = await Promise.all([machine, fallback].map((p) => play(p, 'redlock', variant, REDLOCK_SPLIT, isolateAtGrant)));
      for (const [i, playground] of [machine, fallback].entries()) {
        const { metrics, events, outcome } = played[i]!;
        if (outcome.status !== 'finished') throw new Error(`the run failed: ${outcome.message}`);
        expect(metrics).toEqual(WORKER_1_ALONE);
        checkIsolated(events, mechanismOf(playground), variant);
        // The cut came before worker-1 went on from its checkpoint.
        const cutAt = isolations(events)[0]!.seq;
        expect(eventsOf(events, 'process-paused', 'worker-1')[0]!.seq).toBeGreaterThan(cutAt);
      }
    });
  }

  it('live, while worker-1 is stopped: the same; and a second isolate of it, or of no such node, is refused', async () => {
    for (const playground of [machine, fallback]) {
      const { run, finished } = await splitWithWorker1Stopped(playground);
      // worker-2 asks for the lock only once worker-1's 4 s lease is over: the isolate comes well before.
      expect(eventsOf(run.events, 'lease-requested', 'worker-2')).toEqual([]);
      expect(run.fault('node-9', 'isolate')).toBe("no lab node 'node-9' in this run; known: node-1, node-2, node-3, node-4, node-5");
      expect(run.fault('node-4', 'isolate')).toBeUndefined();
      expect(run.fault('node-4', 'isolate')).toBe('node-4 is already isolated');
      const outcome = await finished;
      if (outcome.status !== 'finished') throw new Error(`the run did not finish: ${outcome.message}`);
      expect(outcome.metrics).toEqual(WORKER_1_ALONE);
      checkIsolated(run.events, mechanismOf(playground));
      expect(run.fault('node-4', 'isolate')).toBe('the run has ended');
    }
  });

  it('live, isolated then rejoined while worker-1 is stopped and worker-2 held: worker-2 gets the majority the cut kept from it; a rejoin of a node not isolated is refused', async () => {
    await Promise.all(
      [machine, fallback].map(async (playground) => {
        const { run, finished } = await splitWithWorker1Stopped(playground);
        // worker-2 stopped (SIGSTOP) until node-4 has been cut and has rejoined: it asks for the lock only after.
        expect(eventsOf(run.events, 'lease-requested', 'worker-2')).toEqual([]);
        expect(run.fault('worker-2', 'pause')).toBeUndefined();
        expect(run.fault('node-4', 'rejoin')).toBe('node-4 is not isolated');
        expect(run.fault('node-4', 'isolate')).toBeUndefined();
        // The rejoin is asked for only once the cut is real (logged), as a person on the page sees it.
        await expect.poll(() => isolations(run.events).length, { timeout: 20_000 }).toBe(2);
        expect(run.fault('node-4', 'rejoin')).toBeUndefined();
        expect(run.fault('node-4', 'rejoin')).toBe('node-4 is not isolated');
        expect(run.fault('node-9', 'rejoin')).toBe("no lab node 'node-9' in this run; known: node-1, node-2, node-3, node-4, node-5");
        await expect.poll(() => rejoins(run.events).length, { timeout: 20_000 }).toBe(2);
        expect(run.fault('worker-2', 'resume')).toBeUndefined();
        const outcome = await finished;
        if (outcome.status !== 'finished') throw new Error(`the run did not finish: ${outcome.message}`);
        expect(outcome.metrics).toEqual(TWO_HOLDERS);
        checkRejoined(run.events, mechanismOf(playground));
        expect(run.fault('node-4', 'rejoin')).toBe('the run has ended');
      }),
    );
  });

  for (const variant of ['redlock', 'lib-redlock']) {
    it(`${variant}, isolated 500 ms from worker-1's grant in a plan: rejoined, node-4 gives worker-2 its majority, on the kernel's cut and on the proxy's alike`, async () => {
      const isolateFor: FaultRule[] = [{ ...isolateAtGrant[0]!, ms: 500 }];
      const played = await Promise.all([machine, fallback].map((p) => play(p, 'redlock', variant, REDLOCK_SPLIT, isolateFor)));
      for (const [i, playground] of [machine, fallback].entries()) {
        const { metrics, events, outcome } = played[i]!;
        if (outcome.status !== 'finished') throw new Error(`the run failed: ${outcome.message}`);
        expect(metrics).toEqual(TWO_HOLDERS);
        checkRejoined(events, mechanismOf(playground), variant);
        // Cut before worker-1 went on from its checkpoint, and rejoined 500 ms later, not sooner.
        const [cut, back] = [isolations(events)[1]!, rejoins(events)[0]!];
        expect(eventsOf(events, 'process-paused', 'worker-1')[0]!.seq).toBeGreaterThan(cut.seq);
        expect(back.atMs - cut.atMs).toBeGreaterThanOrEqual(500);
      }
    });
  }

  it('is refused where the lab has no nodes, and named in the plan', () => {
    const fencing = machine.prepare({ scenario: 'fencing', variant: 'lease-only', params: {}, faults: isolateAtGrant });
    expect(fencing).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^an isolate at 'after-grant': no lab node 'node-4' to isolate/),
    });
  });

  it('leaves no namespace of this process', async () => {
    expect((await racelabNamespaces()).filter((n) => n.startsWith(`${NAMESPACE_PREFIX}${process.pid}-`))).toEqual([]);
  });
});

// "Slow node-3": one of redlock's five Redis nodes slowed for every worker that reaches it,
// live from the page or at a plan's checkpoint, until it is restored (live, or the plan's ms
// run out) or the run ends. netem plays it on each worker's link where the kernel has it;
// here it has none, so every worker reaches each node in its reach through a delay relay of
// the server's relay host, from the run's start, and the slow is played there ("proxy delay"): from a
// worker's namespace (or, with the real faults off, from the worker's own process) a command
// to the slowed node takes at least twice the latency (once each way), while another node
// and the server's own connections answer at once. In a split, node-3 slowed past the
// per-node timeout leaves worker-2 two nodes in time: no majority, by the grants the nodes held.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsOf, type FaultRule, type RunEvent } from '@racelab/shared';
import { racelabNamespaces } from '../../debris/namespaces.js';
import { createLabHost, NAMESPACE_PREFIX, type LabHost } from '../../labnet/labHost.js';
import { detectLabMechanisms, MECHANISM, type LabMechanisms } from '../../labnet/mechanisms.js';
import type { Playground } from '../../runs/playground.js';
import { monotonicNs } from '../../time/clock.js';
import { connectFrom } from '../../testing/pingFrom.js';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { startCluster, type Cluster } from './cluster.js';
import { KERNEL_HAS_NETEM, ROOT_ON_LINUX } from '../../testing/machine.js';
import { openBothWays, REDLOCK_SPLIT, WORKER_1_ALONE } from '../../testing/redlockSplit.js';
import { delayRelayUrlKey, nodeUrlKey } from './keys.js';

const real = detectLabMechanisms();
/** Where the workers are lab hosts and the kernel has netem, netem plays a slow. */
const realNetem = real.namespaces && (await real.netem());
const forcedOff = detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' });
const port = (url: string | number | undefined): number => Number(new URL(String(url)).port);
const nowMs = (): number => Number(monotonicNs()) / 1e6;
/** Each way: a round trip through the slowed node takes at least twice this. */
const LATENCY_MS = 1500;

/** The slow's mechanism for a lab: netem where the workers are hosts and the kernel has it, else the delay relay. */
const slowMechanism = (mechanisms: LabMechanisms): string => (mechanisms === real && realNetem ? MECHANISM.netem : MECHANISM.proxyDelay);

it('a kernel without netem (this one, where the tests run) has the slow played by the delay relay; with the real faults off, always', async () => {
  expect(realNetem).toBe(KERNEL_HAS_NETEM);
  // Where the lab-host cases below run: root on Linux, with no netem.
  expect(real.namespaces && !realNetem).toBe(ROOT_ON_LINUX);
  expect(slowMechanism(real)).toBe(MECHANISM.proxyDelay);
  expect(await forcedOff.netem()).toBe(false);
});

/** A cluster of two workers that reach every node: as lab hosts when `hosts` are given, else on the host's own network. */
async function clusterFor(mechanisms: LabMechanisms, hosts?: LabHost[]): Promise<Cluster> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  // The cluster's stores: only its grant watch uses them, and no lock is taken here.
  const prefix = `racelab-test:${randomBytes(4).toString('hex')}:`;
  const stores = { redis, key: (name: string) => prefix + name, sql: () => Promise.reject(new Error('no SQL here')) };
  try {
    return await startCluster(stores, {
      reach: 'all',
      workerIds: ['worker-1', 'worker-2'],
      ...(hosts ? { hosts: { 'worker-1': hosts[0]!, 'worker-2': hosts[1]! } } : {}),
      clockJumpMs: 0,
      lockKey: 'lock:document',
      mechanisms,
    });
  } finally {
    redis.disconnect();
  }
}

const slowdown = { latencyMs: LATENCY_MS, lossPercent: 10 };
const slowed = (mechanism: string) =>
  ['worker-1', 'worker-2'].map((worker) => ({
    fault: 'slowdown',
    target: `node-3 +${LATENCY_MS} ms, 10% lost for ${worker}`,
    mechanism,
    node: 'node-3',
    peer: null,
    worker,
    slowdown,
    workerId: worker,
  }));
const restored = (mechanism: string) =>
  ['worker-1', 'worker-2'].map((worker) => ({
    fault: 'slowdown-ended',
    target: `node-3 at full speed for ${worker}`,
    mechanism,
    node: 'node-3',
    peer: null,
    worker,
    slowdown: null,
    workerId: worker,
  }));

// Where the kernel has netem the hosts reach the nodes directly and netem.test.ts holds the commands.
describe.runIf(real.namespaces && !realNetem)(
  'a slowed node, where the workers are lab hosts (runs where the machine gives network namespaces and no netem)',
  () => {
    let hosts: LabHost[];
    let cluster: Cluster;
    beforeAll(async () => {
      hosts = [await createLabHost('worker-1'), await createLabHost('worker-2')];
      cluster = await clusterFor(real, hosts);
    });
    afterAll(async () => {
      await cluster?.close();
      await Promise.all((hosts ?? []).map((host) => host.close()));
    });

    it("answers each worker's namespace no sooner than twice the latency, while another node and the server's own connection answer first", async () => {
      // Each worker reaches node-3 and node-4 through its delay relays, on its link's host address.
      const relayPort = (host: LabHost, i: number): number => port(cluster.shared[delayRelayUrlKey(host.name, i)]);
      const toNode3 = await Promise.all(hosts.map((host) => connectFrom(host, host.hostAddress, relayPort(host, 2))));
      const toNode4 = await Promise.all(hosts.map((host) => connectFrom(host, host.hostAddress, relayPort(host, 3))));
      const own = new Redis(String(cluster.shared[nodeUrlKey(2)]), { maxRetriesPerRequest: 0 });
      try {
        for (const connection of [...toNode3, ...toNode4]) connection.send('PING');
        expect(await Promise.all([...toNode3, ...toNode4].map((c) => c.reply(5000)))).toEqual(['PONG', 'PONG', 'PONG', 'PONG']);
        const made = await cluster.slow['node-3']!({ latencyMs: LATENCY_MS, lossPercent: 10 });
        expect(made.faults).toEqual(slowed(MECHANISM.proxyDelay));
        const sentMs = nowMs();
        for (const connection of [...toNode3, ...toNode4]) connection.send('PING');
        // node-4's answers and the server's own PING of node-3 come back while node-3's are still on their way.
        const first = await Promise.all([...toNode4.map((c) => c.reply(LATENCY_MS)), own.ping()]);
        expect(first).toEqual(['PONG', 'PONG', 'PONG']);
        const [slow1, slow2] = await Promise.all(toNode3.map((c) => c.reply(4 * LATENCY_MS + 2000)));
        expect([slow1, slow2]).toEqual(['PONG', 'PONG']);
        expect(nowMs() - sentMs).toBeGreaterThanOrEqual(2 * LATENCY_MS);

        expect(await made.restore()).toEqual(restored(MECHANISM.proxyDelay));
        for (const connection of toNode3) connection.send('PING');
        // Restored: the same connections answer well within one latency.
        expect(await Promise.all(toNode3.map((c) => c.reply(LATENCY_MS)))).toEqual(['PONG', 'PONG']);
      } finally {
        own.disconnect();
        await Promise.all([...toNode3, ...toNode4].map((connection) => connection.close()));
      }
    });

    it("an isolate of the slowed node still cuts it: the relay's port is dropped too", async () => {
      const relay3 = port(cluster.shared[delayRelayUrlKey('worker-1', 2)]);
      const old = await connectFrom(hosts[0]!, hosts[0]!.hostAddress, relay3);
      const cut = await cluster.isolate['node-3']!();
      try {
        old.send('PING');
        expect(await old.reply(1000)).toBe('timeout');
      } finally {
        await cut.rejoin();
        await old.close();
      }
    });
  },
);

describe('a slowed node, with the real faults off', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await clusterFor(forcedOff);
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it('answers a worker through its relay no sooner than twice the latency, while another node and the server answer first', async () => {
    const client = (key: string) => new Redis(String(cluster.shared[key]), { maxRetriesPerRequest: 0 });
    const [toNode3, toNode4, own] = [
      client(delayRelayUrlKey('worker-2', 2)),
      client(delayRelayUrlKey('worker-2', 3)),
      client(nodeUrlKey(2)),
    ];
    try {
      expect(await Promise.all([toNode3.ping(), toNode4.ping()])).toEqual(['PONG', 'PONG']);
      const made = await cluster.slow['node-3']!({ latencyMs: LATENCY_MS, lossPercent: 10 });
      expect(made.faults).toEqual(slowed(MECHANISM.proxyDelay));
      const sentMs = nowMs();
      let slowAnswered = false;
      const slow = toNode3.ping().then((pong) => ((slowAnswered = true), pong));
      expect(await Promise.all([toNode4.ping(), own.ping()])).toEqual(['PONG', 'PONG']);
      expect(slowAnswered).toBe(false);
      expect(await slow).toBe('PONG');
      expect(nowMs() - sentMs).toBeGreaterThanOrEqual(2 * LATENCY_MS);
      expect(await made.restore()).toEqual(restored(MECHANISM.proxyDelay));
    } finally {
      for (const c of [toNode3, toNode4, own]) c.disconnect();
    }
  });
});

let machine: Playground;
let fallback: Playground;
beforeAll(async () => {
  [machine, fallback] = await openBothWays(forcedOff);
});
afterAll(async () => {
  await Promise.all([machine?.close(), fallback?.close()]);
});

/** The split's own story: worker-2 takes nodes 3–5 once worker-1's lease is over, and stopped worker-1's write lands after its. */
const TWO_HOLDERS = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };
/**
 * node-3 slowed 2 s each way, far past the 100 ms a node may take: worker-2's SET reaches it
 * 2 s late, long after worker-2 has counted two yeses and released node-4 and node-5, so no
 * moment finds three nodes holding its token.
 */
const SLOW_NODE_3 = { action: 'slow', node: 'node-3', latencyMs: 2000 } as const;
const slowdowns = (events: RunEvent[]) => eventsOf(events, 'fault-staged').filter((e) => e.fault === 'slowdown');
const ends = (events: RunEvent[]) => eventsOf(events, 'fault-staged').filter((e) => e.fault === 'slowdown-ended');
const both = (words: string, mechanism: string) => [
  ['worker-1', `node-3 ${words} for worker-1`, mechanism],
  ['worker-2', `node-3 ${words} for worker-2`, mechanism],
];
const mechanismOf = (playground: Playground): string => slowMechanism(playground === machine ? real : forcedOff);

/** node-3 was slowed for both workers, and worker-2, which asked while it was, got no majority. */
function checkSlowed(events: RunEvent[], mechanism: string, variant = 'redlock'): void {
  expect(slowdowns(events).map((e) => [e.workerId, e.target, e.mechanism])).toEqual(both('+2000 ms', mechanism));
  // What the CLI's --json lists in `faults`: each slow with its mechanism.
  expect(
    faultsOf(events)
      .filter((f) => f.fault === 'slowdown')
      .map((f) => [f.workerId, f.target, f.mechanism]),
  ).toEqual(both('+2000 ms', mechanism));
  // The hand-written Redlock says which nodes said yes; a library only that it got no majority.
  expect(eventsOf(events, 'note', 'worker-2').map((e) => e.text)).toEqual(
    variant === 'redlock' ? [expect.stringMatching(/^2 of 5 nodes said yes \(node-4, node-5\)/)] : [],
  );
  expect(eventsOf(events, 'job-skipped', 'worker-2')).toHaveLength(1);
}

describe('slowing node-3 in a run', () => {
  const slowAtGrant: FaultRule[] = [{ checkpoint: 'after-grant', target: 'worker-1', ...SLOW_NODE_3 }];

  for (const variant of ['redlock', 'lib-redlock']) {
    it(`${variant}, at worker-1's grant in a plan: node-3 answers too late, and worker-2 gets no majority, on both mechanisms`, async () => {
      const played = await Promise.all([machine, fallback].map((p) => play(p, 'redlock', variant, REDLOCK_SPLIT, slowAtGrant)));
      for (const [i, playground] of [machine, fallback].entries()) {
        const { metrics, events, outcome } = played[i]!;
        if (outcome.status !== 'finished') throw new Error(`the run failed: ${outcome.message}`);
        // Counted from the grants the server saw on the nodes: worker-2 never held a majority.
        expect(metrics).toEqual(WORKER_1_ALONE);
        checkSlowed(events, mechanismOf(playground), variant);
        // Slowed before worker-1 went on from its checkpoint.
        expect(eventsOf(events, 'process-paused', 'worker-1')[0]!.seq).toBeGreaterThan(slowdowns(events)[1]!.seq);
      }
    });
  }

  it("redlock, slowed 500 ms from worker-1's grant in a plan: restored before worker-2 asks, node-3 gives it its majority", async () => {
    const slowFor: FaultRule[] = [{ ...slowAtGrant[0]!, ms: 500 }];
    const played = await Promise.all([machine, fallback].map((p) => play(p, 'redlock', 'redlock', REDLOCK_SPLIT, slowFor)));
    for (const [i, playground] of [machine, fallback].entries()) {
      const { metrics, events, outcome } = played[i]!;
      if (outcome.status !== 'finished') throw new Error(`the run failed: ${outcome.message}`);
      expect(metrics).toEqual(TWO_HOLDERS);
      expect(ends(events).map((e) => [e.workerId, e.target, e.mechanism])).toEqual(both('at full speed', mechanismOf(playground)));
      expect(ends(events)[0]!.atMs - slowdowns(events)[1]!.atMs).toBeGreaterThanOrEqual(500);
      expect(eventsOf(events, 'lease-requested', 'worker-2')[0]!.seq).toBeGreaterThan(ends(events)[1]!.seq);
      expect(eventsOf(events, 'note', 'worker-2').map((e) => e.text)).toEqual([
        expect.stringMatching(/^3 of 5 nodes said yes \(node-3, node-4, node-5\)/),
      ]);
    }
  });

  it('live, while worker-1 is stopped: the same; a second slow, a restore of a node not slowed and a slow of no such node are refused', async () => {
    await Promise.all(
      [machine, fallback].map(async (playground) => {
        const prepared = playground.prepare({ scenario: 'redlock', variant: 'redlock', params: REDLOCK_SPLIT });
        if (!prepared.ok) throw new Error(prepared.error);
        const { run } = prepared;
        const finished = run.start();
        await expect.poll(() => eventsOf(run.events, 'process-paused', 'worker-1').length, { timeout: 20_000 }).toBe(1);
        // worker-2 asks only once worker-1's 4 s lease is over: the slow comes well before.
        expect(eventsOf(run.events, 'lease-requested', 'worker-2')).toEqual([]);
        expect(run.fault('node-3', 'restore')).toBe('node-3 is not slowed');
        expect(run.fault('node-9', 'slow', { latencyMs: 2000, lossPercent: 0 })).toBe(
          "no lab node 'node-9' in this run; known: node-1, node-2, node-3, node-4, node-5",
        );
        expect(run.fault('node-3', 'slow', { latencyMs: 2000, lossPercent: 0 })).toBeUndefined();
        expect(run.fault('node-3', 'slow', { latencyMs: 2000, lossPercent: 0 })).toBe('node-3 is already slowed');
        const outcome = await finished;
        if (outcome.status !== 'finished') throw new Error(`the run did not finish: ${outcome.message}`);
        expect(outcome.metrics).toEqual(WORKER_1_ALONE);
        checkSlowed(run.events, mechanismOf(playground));
        expect(run.fault('node-3', 'restore')).toBe('the run has ended');
      }),
    );
  });

  it('is refused where the lab has no nodes, and named in the plan', () => {
    const fencing = machine.prepare({ scenario: 'fencing', variant: 'lease-only', params: {}, faults: slowAtGrant });
    expect(fencing).toMatchObject({ ok: false, error: expect.stringMatching(/^a slow at 'after-grant': no lab node 'node-3' to slow/) });
  });

  it('leaves no namespace of this process', async () => {
    expect((await racelabNamespaces()).filter((n) => n.startsWith(`${NAMESPACE_PREFIX}${process.pid}-`))).toEqual([]);
  });
});

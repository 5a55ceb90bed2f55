// "Isolate node-4": one of redlock's five Redis nodes cut from every worker, to the run's
// end, live from the page or at a plan's checkpoint. Where the workers are lab hosts the
// cut is the kernel's (an nftables drop in each worker's namespace): from a worker's
// namespace the node's address goes silent while another node answers, and the server's own
// connections answer both. Elsewhere each worker's own link to the node turns into a
// blackhole. Either way a split's worker-2, left two nodes, gets no majority.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule, RunEvent } from '@racelab/shared';
import { racelabNamespaces } from '../../debris/namespaces.js';
import { createLabHost, NAMESPACE_PREFIX, type LabHost } from '../../labnet/labHost.js';
import { detectLabMechanisms, MECHANISM } from '../../labnet/mechanisms.js';
import type { Playground } from '../../runs/playground.js';
import { ROOT_ON_LINUX } from '../../testing/machine.js';
import { pingFrom } from '../../testing/pingFrom.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';
import { startLink } from './blackhole.js';
import { startCluster, type Cluster } from './cluster.js';
import { nodeUrlKey, viewUrlKey } from './keys.js';

const real = detectLabMechanisms();
const forcedOff = detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' });
const kernel = real.namespaces && real.nftables;
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
});

if (kernel)
  describe('an isolated node, where the workers are lab hosts', () => {
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
      const faults = await cluster.isolate['node-5']!();
      expect(faults).toEqual([
        { fault: 'isolation', target: 'node-5 from worker-1', mechanism: MECHANISM.nftables, workerId: 'worker-1' },
        { fault: 'isolation', target: 'node-5 from worker-2', mechanism: MECHANISM.nftables, workerId: 'worker-2' },
      ]);
      for (const host of hosts) {
        expect(await pingFrom(host, host.hostAddress, node5, 700)).toBe('timeout');
        expect(await pingFrom(host, host.hostAddress, node4, 2000)).toBe('PONG');
        // node-5 decides the choreography where every node is in reach: the harness's own view passes a relay beside it.
        const view = port(cluster.shared[viewUrlKey(host.name, 4)]);
        expect(view).not.toBe(node5);
        expect(await pingFrom(host, host.hostAddress, view, 2000)).toBe('PONG');
      }
      expect(await Promise.all(own.map((client) => client.ping()))).toEqual(['PONG', 'PONG']);
    });
  });

let machine: Playground;
let fallback: Playground;
beforeAll(async () => {
  [machine, fallback] = await Promise.all([openTestPlayground(0), openTestPlayground(2, { labMechanisms: forcedOff })]);
});
afterAll(async () => {
  await Promise.all([machine?.close(), fallback?.close()]);
});

/** The split: worker-2 reaches nodes 3–5, so with node-4 cut it is left two and gets no majority. */
const SPLIT = { reach: 'split', leaseMs: 4000, pauseMs: 6000, workMs: 100 };
/** worker-2 never holds the lock: worker-1's write is the only one, and not stale. */
const ALONE = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-1' };
const isolations = (events: RunEvent[]) => eventsOf(events, 'fault-staged').filter((e) => e.fault === 'isolation');
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

describe('isolating node-4 in a run', () => {
  const isolateAtGrant: FaultRule[] = [{ checkpoint: 'after-grant', target: 'worker-1', action: 'isolate', node: 'node-4' }];

  for (const variant of ['redlock', 'lib-redlock']) {
    it(`${variant}, at worker-1's grant in a plan: worker-2 gets no majority, on the kernel's cut and on the proxy's alike`, async () => {
      const played = await Promise.all([machine, fallback].map((p) => play(p, 'redlock', variant, SPLIT, isolateAtGrant)));
      for (const [i, playground] of [machine, fallback].entries()) {
        const { metrics, events, outcome } = played[i]!;
        if (outcome.status !== 'finished') throw new Error(`the run failed: ${outcome.message}`);
        expect(metrics).toEqual(ALONE);
        checkIsolated(events, mechanismOf(playground), variant);
        // The cut came before worker-1 went on from its checkpoint.
        const cutAt = isolations(events)[0]!.seq;
        expect(eventsOf(events, 'process-paused', 'worker-1')[0]!.seq).toBeGreaterThan(cutAt);
      }
    });
  }

  it('live, while worker-1 is stopped: the same; and a second isolate of it, or of no such node, is refused', async () => {
    for (const playground of [machine, fallback]) {
      const prepared = playground.prepare({ scenario: 'redlock', variant: 'redlock', params: SPLIT });
      if (!prepared.ok) throw new Error(prepared.error);
      const { run } = prepared;
      const finished = run.start();
      await expect.poll(() => eventsOf(run.events, 'process-paused', 'worker-1').length, { timeout: 20_000 }).toBe(1);
      // worker-2 asks for the lock only once worker-1's 4 s lease is over: the isolate comes well before.
      expect(eventsOf(run.events, 'lease-requested', 'worker-2')).toEqual([]);
      expect(run.fault('node-9', 'isolate')).toBe("no lab node 'node-9' in this run; known: node-1, node-2, node-3, node-4, node-5");
      expect(run.fault('node-4', 'isolate')).toBeUndefined();
      expect(run.fault('node-4', 'isolate')).toBe('node-4 is already isolated');
      const outcome = await finished;
      if (outcome.status !== 'finished') throw new Error(`the run did not finish: ${outcome.message}`);
      expect(outcome.metrics).toEqual(ALONE);
      checkIsolated(run.events, mechanismOf(playground));
      expect(run.fault('node-4', 'isolate')).toBe('the run has ended');
    }
  });

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

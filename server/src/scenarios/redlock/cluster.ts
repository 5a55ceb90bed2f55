// The run's Redlock cluster: five independent redis-servers (no replication, nothing
// shared) and the partition of a split. Where the workers run as lab hosts (../../labnet/),
// each node listens on every worker's link too, and a node out of a worker's reach is cut
// in the kernel: an nftables rule in that worker's namespace drops what it sends to the
// node, so its connection hangs as across a real partition, while the server's own
// connections (127.0.0.1) answer. Elsewhere a worker connects to one blackhole instead (a
// proxy that never answers). A clock jump moves node-3's own wall clock where the wall clock
// shim builds here (labnet/movableClock.ts), and is simulated on its expiries elsewhere
// (clockJump.ts). A slow node is netem on each worker's link where the kernel has it
// (labnet/netem.ts), else a delay relay that each worker reaches the node through from the
// run's start (labnet/delayRelay.ts), in the server's relay host (labnet/relayHost.ts) so
// that no byte of it waits on the server's own event loop. Either way the staged faults name
// the mechanism. Started by the scenario's setup, stopped by close(); if this process exits
// first, nothing is left running (and a SIGKILLed server's leftovers are reaped by the next one).
import { dirname } from 'node:path';
import { Redis } from 'ioredis';
import { startEmbeddedRedis } from '../../services/embeddedRedis.js';
import type { StartedService } from '../../services/startedService.js';
import { slowdownWords, type StagedFault } from '@racelab/shared';
import { MECHANISM, type LabMechanisms } from '../../labnet/mechanisms.js';
import { createMovableClock, type MovableClock } from '../../labnet/movableClock.js';
import type { LabHost } from '../../labnet/labHost.js';
import { startRelay, type Relay } from '../../labnet/relay.js';
import type { Slowdown } from '../../labnet/delayRelay.js';
import { startHostedDelayRelay, type HostedDelayRelay } from '../../labnet/relayHost.js';
import { netemRestoreCommands, netemRootCommands, netemSlowCommands, runNetemCommands } from '../../labnet/netem.js';
import type { NodeCut, NodeCutMade, NodeSlow, NodeSlowMade, RunFixture, RunStores } from '../types.js';
import { startBlackhole, type Blackhole } from './blackhole.js';
import { aheadWords, clockAheadMs, simulatedAheadMs } from './nodeClock.js';
import {
  CLOCK_FILE_KEY,
  delayRelayUrlKey,
  JUMPING_NODE,
  linkHostKey,
  NODE_COUNT,
  nodeName,
  nodeUrlKey,
  PARTITION_KEY,
  viewUrlKey,
} from './keys.js';
import type { Reach } from './reach.js';
import { decidingNode, reachableNodes } from './reach.js';
import { watchNodeGrants, type NodeGrants } from '../kit/nodeGrants.js';

export interface Cluster extends RunFixture {
  shared: Record<string, string>;
  faults: StagedFault[];
  /** What each node holds for the lock right now, and the jumping node's clock offset. */
  observe(): Promise<Record<string, string>>;
  /** The grants the server sees on the nodes, recorded in the run's grants table. */
  grants: NodeGrants;
  /** "Isolate node-3": each node cut from every worker, in the kernel or by the workers' own links (redlockJob.ts), until it rejoins. */
  isolate: Record<string, NodeCut>;
  /** "Slow node-3": each node slowed for every worker that reaches it, by netem or by the delay relays, until it is restored. */
  slow: Record<string, NodeSlow>;
  close(): Promise<void>;
}

/** A worker id from a lock token ("worker-1:3f9c…" → "worker-1"). */
const holderOf = (token: string | null): string => (token === null ? 'free' : token.split(':')[0]!);

export interface ClusterNetwork {
  reach: Reach;
  /** The workers in order, and their lab hosts when they run as such. */
  workerIds: string[];
  hosts?: Record<string, LabHost>;
  /** Node-3's clock jump, in ms (0: none). */
  clockJumpMs: number;
  /** The lock's key on the nodes: LOCK_KEY, or where a library variant's lock names it (keyAliases). */
  lockKey: string;
  /** What the machine gives the run's lab. */
  mechanisms: LabMechanisms;
}

/** The pid of the redis-server at `url`, as it says itself. */
async function serverPid(url: string): Promise<number> {
  const probe = new Redis(url, { maxRetriesPerRequest: 1, connectionName: 'racelab-observer' });
  probe.on('error', () => undefined); // the command reports it
  try {
    return Number(/^process_id:(\d+)/m.exec(await probe.info('server'))?.[1]);
  } finally {
    probe.disconnect();
  }
}

export async function startCluster(stores: RunStores, network: ClusterNetwork): Promise<Cluster> {
  const hosts = network.hosts ? network.workerIds.map((id) => network.hosts![id]!) : [];
  const bindLinks = hosts.length > 0 ? ['--bind', '127.0.0.1', ...hosts.map((h) => h.hostAddress), '--protected-mode', 'no'] : [];
  const started: StartedService[] = [];
  let blackhole: Blackhole | undefined;
  // node-3's own clock, where the shim builds here and the run jumps it: its file is written by the jump (clockJump.ts).
  let clock: MovableClock | null = null;
  let clients: Redis[] = [];
  const relays: Relay[] = [];
  const delayRelays = new Map<string, HostedDelayRelay>();
  const killAll = (): void => {
    for (const node of started) node.killSync();
    clock?.closeSync();
  };
  process.on('exit', killAll);
  /**
   * Stops whatever of the cluster has started: by close(), or at once when the start fails
   * part-way, so that nothing it made is left running until the server exits.
   */
  const release = async (): Promise<void> => {
    for (const client of clients) client.disconnect();
    const closed = await Promise.allSettled([
      blackhole?.close(),
      ...[...relays, ...delayRelays.values()].map((relay) => relay.close()),
      ...started.map((node) => node.stop()),
    ]);
    await clock?.close();
    process.off('exit', killAll);
    const failed = closed.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    const shim = network.mechanisms.wallClockShim;
    if (network.clockJumpMs > 0 && shim) clock = await createMovableClock(shim);
    const env = (i: number) => (i === JUMPING_NODE && clock ? { env: clock.env } : {});
    const results = await Promise.allSettled(
      Array.from({ length: NODE_COUNT }, (_, i) => startEmbeddedRedis({ args: bindLinks, ...env(i) })),
    );
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    clock?.check(await serverPid(started[JUMPING_NODE]!.url), `${nodeName(JUMPING_NODE)}'s redis-server`);
    blackhole = await startBlackhole();
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }

  // The server's own view of the nodes, for the timeline's truth lanes.
  clients = started.map((node) => {
    const client = new Redis(node.url, { maxRetriesPerRequest: 1, connectionName: 'racelab-observer' });
    client.on('error', () => undefined);
    return client;
  });

  const shared: Record<string, string> = { blackholeUrl: blackhole.url };
  started.forEach((node, i) => (shared[nodeUrlKey(i)] = node.url));
  if (clock) shared[CLOCK_FILE_KEY] = clock.file;
  // The split: in the kernel where the workers are hosts and nft is there, else the blackhole.
  const kernel = hosts.length > 0 && network.mechanisms.nftables;
  shared[PARTITION_KEY] = kernel ? MECHANISM.nftables : MECHANISM.proxy;
  const faults: StagedFault[] = [];
  const port = (i: number): number => Number(new URL(started[i]!.url).port);
  const delayRelayOf = (k: number, i: number): HostedDelayRelay | undefined => delayRelays.get(`${k}:${i}`);
  let netem = false;
  try {
    // The harness's own view of the deciding and the jumping node passes a relay on the link,
    // beside the node's port, so that isolating either cuts the variant, never the choreography.
    const viewed = [...new Set([decidingNode(network.reach), JUMPING_NODE])];
    for (const [k, workerId] of network.workerIds.entries()) {
      const host = hosts[k];
      if (!host) continue;
      for (const i of viewed) {
        const relay = await startRelay(host.hostAddress, { host: '127.0.0.1', port: port(i) });
        relays.push(relay);
        shared[viewUrlKey(workerId, i)] = `redis://${relay.host}:${relay.port}`;
      }
    }
    // Where netem cannot play a slow, each worker reaches each node in its reach through a delay
    // relay of the relay host (on its link's host address, or 127.0.0.1 off the lab hosts), from
    // the run's start: a slow later needs no new connection.
    netem = hosts.length > 0 && (await network.mechanisms.netem());
    if (!netem) {
      const wanted = network.workerIds.flatMap((workerId, k) => reachableNodes(network.reach, k).map((i) => ({ workerId, k, i })));
      // Asked of the relay host all at once: each is a round trip to it.
      const opened = await Promise.allSettled(
        wanted.map(({ k, i }) => startHostedDelayRelay(hosts[k]?.hostAddress ?? '127.0.0.1', { host: '127.0.0.1', port: port(i) })),
      );
      for (const [n, { workerId, k, i }] of wanted.entries()) {
        const relay = opened[n]!;
        if (relay.status === 'rejected') continue;
        delayRelays.set(`${k}:${i}`, relay.value);
        shared[delayRelayUrlKey(workerId, i)] = `redis://${relay.value.host}:${relay.value.port}`;
      }
      const failed = opened.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
    for (const [k, workerId] of network.workerIds.entries()) {
      const host = hosts[k];
      if (host) shared[linkHostKey(workerId)] = host.hostAddress;
      for (let i = 0; i < NODE_COUNT; i++) {
        if (reachableNodes(network.reach, k).includes(i)) continue;
        if (kernel) await host!.drop(host!.hostAddress, port(i));
        const node = nodeName(i);
        const mechanism = shared[PARTITION_KEY];
        faults.push({
          fault: 'partition',
          target: `${workerId} ↔ ${node}`,
          mechanism,
          node,
          peer: null,
          worker: workerId,
          slowdown: null,
          workerId,
        });
      }
    }
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  // Redis keeps its expiries on its own clock: the jump moves that clock, or else is played on
  // the node's expiries. Logged in the lane of worker-1, whose process plays it (redlockJob.ts).
  if (network.clockJumpMs > 0) {
    faults.push({
      fault: 'clock-jump',
      target: `${nodeName(JUMPING_NODE)} +${network.clockJumpMs} ms`,
      mechanism: clock ? MECHANISM.wallClockShim : MECHANISM.simulatedExpiry,
      node: nodeName(JUMPING_NODE),
      peer: null,
      worker: null,
      slowdown: null,
      workerId: network.workerIds[0]!,
    });
  }

  // A grant is a majority of the nodes holding one worker's token.
  // node-3's TIME runs ahead of the host's by its jump: the grants seen there are timed back by it.
  const grants = watchNodeGrants(
    stores,
    clients.map((client, i) => ({ client, dead: () => false, ...(i === JUMPING_NODE && clock ? { clockOffsetMs: clock.offsetMs } : {}) })),
    network.lockKey,
    Math.floor(NODE_COUNT / 2) + 1,
  );

  // An isolated node: dropped in each worker's namespace where the split is the kernel's (a
  // rule of its own, beside the split's, lifted by its rejoin); else each worker's own link
  // to it turns into a blackhole, and back, once told (the run sets the latches).
  const isolateNode = async (i: number): Promise<NodeCutMade> => {
    // The node's own port, and the delay relay's a worker reaches it through.
    const dropped = (k: number): number[] => [port(i), ...(delayRelayOf(k, i) ? [delayRelayOf(k, i)!.port] : [])];
    const made = kernel
      ? await Promise.allSettled(hosts.flatMap((host, k) => dropped(k).map((to) => host.drop(host.hostAddress, to))))
      : [];
    const rules = made.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = made.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(rules.map((rule) => rule.lift().catch(() => undefined)));
      throw failed.reason;
    }
    const each = (fault: 'isolation' | 'rejoin', words: string): StagedFault[] =>
      network.workerIds.map((workerId) => ({
        fault,
        target: `${nodeName(i)} ${words} ${workerId}`,
        mechanism: shared[PARTITION_KEY]!,
        node: nodeName(i),
        peer: null,
        worker: workerId,
        slowdown: null,
        workerId,
      }));
    return {
      faults: each('isolation', 'from'),
      async rejoin() {
        await Promise.all(rules.map((rule) => rule.lift()));
        return each('rejoin', 'to');
      },
    };
  };
  const isolate: Record<string, NodeCut> = Object.fromEntries(started.map((_, i) => [nodeName(i), () => isolateNode(i)]));

  // A slowed node: netem on the link of each worker that reaches it (a band of its own, each
  // way), or that worker's delay relay for it. A worker the node is out of reach of is not
  // slowed: nothing of it reaches the node.
  const slowMechanism = netem ? MECHANISM.netem : MECHANISM.proxyDelay;
  const rooted = new Set<number>(); // the links whose prio qdisc is made
  const slowNode = async (i: number, slowdown: Slowdown): Promise<NodeSlowMade> => {
    const reaching = network.workerIds.flatMap((workerId, k) => (reachableNodes(network.reach, k).includes(i) ? [{ workerId, k }] : []));
    const slowed: number[] = [];
    const restoreAll = async (): Promise<void> => {
      for (const k of slowed) {
        if (netem) await runNetemCommands(netemRestoreCommands(hosts[k]!, i));
        else await delayRelayOf(k, i)!.restore();
      }
    };
    try {
      for (const { k } of reaching) {
        if (netem) {
          if (!rooted.has(k)) await runNetemCommands(netemRootCommands(hosts[k]!, NODE_COUNT));
          rooted.add(k);
          await runNetemCommands(netemSlowCommands(hosts[k]!, i, port(i), slowdown));
        } else await delayRelayOf(k, i)!.slow(slowdown);
        slowed.push(k);
      }
    } catch (error) {
      await restoreAll().catch(() => undefined);
      throw error;
    }
    const node = nodeName(i);
    const each = (fault: 'slowdown' | 'slowdown-ended', words: string, added: Slowdown | null): StagedFault[] =>
      reaching.map(({ workerId }) => ({
        fault,
        target: `${words} for ${workerId}`,
        mechanism: slowMechanism,
        node,
        peer: null,
        worker: workerId,
        slowdown: added,
        workerId,
      }));
    return {
      faults: each('slowdown', slowdownWords(node, slowdown), { ...slowdown }),
      async restore() {
        await restoreAll();
        return each('slowdown-ended', `${node} at full speed`, null);
      },
    };
  };
  const slow: Record<string, NodeSlow> = Object.fromEntries(
    started.map((_, i) => [nodeName(i), (slowdown: Slowdown) => slowNode(i, slowdown)]),
  );

  return {
    shared,
    // The jumping node's clock file is the workers' to write: the first to take the lock jumps it.
    ...(clock ? { folders: [dirname(clock.file)] } : {}),
    faults,
    grants,
    lockHeld: (listener) => grants.onHeld(listener),
    isolate,
    slow,
    async observe() {
      // A read that fails (a connection the server's own client is making again) leaves that
      // node's row as it was, as the grant watch tries its next sample: what the timeline
      // shows, not what the verdict is made of, and no reason to cancel the run.
      const unread = (): null => null;
      const holders = await Promise.all(clients.map((c) => c.get(network.lockKey).then(holderOf, unread)));
      const lanes: Record<string, string> = {};
      holders.forEach((holder, i) => {
        if (holder !== null) lanes[`${nodeName(i)} lock`] = holder;
      });
      if (network.clockJumpMs > 0) {
        // A moved clock read against node-1's, which keeps the host's; a look too slow to tell leaves the row as it was.
        const jumping = clients[JUMPING_NODE]!;
        const aheadMs = await (clock ? clockAheadMs(jumping, clients[0]!) : simulatedAheadMs(jumping)).catch(unread);
        if (aheadMs !== null) lanes[`${nodeName(JUMPING_NODE)} clock`] = aheadWords(aheadMs);
      }
      return lanes;
    },
    async close() {
      await grants.stop().catch(() => undefined); // measure has said what went wrong
      await release();
    },
  };
}

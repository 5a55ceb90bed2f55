// The run's own Redis deployment, all real processes: a primary; a far replica behind the
// lab's replication link (another zone, a network that may be slow); a second far replica that copies
// the first, so a promoted far replica still has a replica of its own; with outage "zone",
// a near replica beside the primary; and one Sentinel watching the primary. Where the run's
// lab gives the far replica a host of its own (a network namespace), it runs there and its
// link is the kernel's (kernelLink.ts); elsewhere the far replica connects through the lab's
// proxy (replicationLink.ts).
import { Redis } from 'ioredis';
import { startEmbeddedRedis } from '../../services/embeddedRedis.js';
import type { StartedService } from '../../services/startedService.js';
import { NODES, SENTINEL_NAME } from './keys.js';
import type { LabHost } from '../../labnet/labHost.js';
import { kernelLink } from './kernelLink.js';
import { proxyLink, type FarLink } from './replicationLink.js';
import { startSentinel, type SentinelProcess } from './sentinel.js';
import { replicationInfo, waitUntil } from './redisInfo.js';

export interface DeploymentOptions {
  /** Start a near replica too (outage "zone"). */
  withNearReplica: boolean;
  /** The link to the far replica holds the primary's bytes (a lag longer than the run). */
  slowLink: boolean;
  downAfterMs: number;
  failoverTimeoutMs: number;
  /** The far replica's lab host, where the machine gives one: the far replica runs inside, the link is the kernel's. */
  farHost?: LabHost;
}

export interface RedisNode {
  name: string;
  port: number;
  service: StartedService;
  /** The fixture's own connection, for ground truth; never a worker's. */
  client: Redis;
  dead: boolean;
}

export interface Deployment {
  nodes: RedisNode[];
  far: RedisNode;
  link: FarLink;
  sentinelPort: number;
  /** Kills these nodes for real (SIGKILL), all at once. */
  kill(names: string[]): void;
  /** The node Sentinel names as the primary right now. */
  sentinelPrimary(): Promise<string>;
  close(): Promise<void>;
}

const SYNC_TIMEOUT_MS = 15_000;
const SYNC_MARK_KEY = 'setup:replication-check';
// No diskless-sync delay: a replica gets its first copy at once, not after 5 s.
const NO_SYNC_DELAY = ['--repl-diskless-sync-delay', '0'];

/** Starts the deployment, waits until every replica is in sync and Sentinel knows them. */
export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const closers: Array<() => Promise<void>> = [];
  const nodes: RedisNode[] = [];
  // Anything started before a failure is stopped again: no process outlives a broken setup.
  const closeAll = async (): Promise<void> => {
    await Promise.all(
      closers
        .splice(0)
        .reverse()
        .map((close) => close().catch(() => undefined)),
    );
  };
  const startNode = async (name: string, args: string[], host?: LabHost): Promise<RedisNode> => {
    // Inside its lab host, a node listens on its end of the link: the host reaches it there.
    const inside = host ? { wrap: host.wrap, host: host.address } : {};
    const service = await startEmbeddedRedis({ args: [...NO_SYNC_DELAY, ...args, ...(host ? ['--bind', host.address] : [])], ...inside });
    closers.push(() => service.stop());
    const { hostname, port: portText } = new URL(service.url);
    const port = Number(portText);
    // Reconnects by itself: Sentinel drops every client of the replica it promotes.
    const client = new Redis(port, hostname, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => 20,
      lazyConnect: true,
    });
    client.on('error', () => undefined);
    closers.push(async () => client.disconnect());
    await client.connect();
    const node = { name, port, service, client, dead: false };
    nodes.push(node);
    return node;
  };
  const replicaOf = (port: number, host = '127.0.0.1'): string[] => ['--replicaof', host, String(port)];
  const farHost = options.farHost;
  // With the far replica in a namespace, the primary and the far replica's own replica listen on the host's end of its link too.
  const onLink = farHost ? ['--bind', '127.0.0.1', farHost.hostAddress, '--protected-mode', 'no'] : [];

  try {
    const primary = await startNode(NODES.primary, onLink);
    const link = farHost ? kernelLink(farHost, primary, () => nodes.find((n) => n.name === NODES.far)) : await proxyLink(primary.port);
    closers.push(() => link.close());
    const near = options.withNearReplica ? await startNode(NODES.near, replicaOf(primary.port)) : null;
    const far = await startNode(NODES.far, [...replicaOf(link.target.port, link.target.host), '--protected-mode', 'no'], farHost);
    await startNode(NODES.far2, [...replicaOf(far.port, new URL(far.service.url).hostname), ...onLink]); // a promoted far replica keeps a replica

    // Every replica has a write made just now before the link starts holding bytes: the
    // replication stream flows end to end (a primary starts it only on a replica's first ACK).
    await waitUntil(SYNC_TIMEOUT_MS, 'the replicas to sync', async () => {
      const [p, f] = await Promise.all([replicationInfo(primary.client), replicationInfo(far.client)]);
      return onlineReplicas(p) === (near ? 2 : 1) && onlineReplicas(f) === 1;
    });
    await primary.client.set(SYNC_MARK_KEY, 'in sync');
    await waitUntil(SYNC_TIMEOUT_MS, 'the replicas to copy a write', async () => {
      const marks = await Promise.all(nodes.map((n) => n.client.get(SYNC_MARK_KEY)));
      return marks.every((m) => m === 'in sync');
    });
    if (options.slowLink) await link.hold();

    const sentinel: SentinelProcess = await startSentinel({
      name: SENTINEL_NAME,
      primaryPort: primary.port,
      downAfterMs: options.downAfterMs,
      failoverTimeoutMs: options.failoverTimeoutMs,
    });
    closers.push(() => sentinel.stop());
    const sentinelClient = new Redis(sentinel.port, '127.0.0.1', { maxRetriesPerRequest: 0, lazyConnect: true });
    sentinelClient.on('error', () => undefined);
    closers.push(async () => sentinelClient.disconnect());
    await sentinelClient.connect();
    // Sentinel found the primary's replicas (from its INFO), reached each one, and sees its link up.
    await waitUntil(SYNC_TIMEOUT_MS, 'Sentinel to know the replicas', async () => {
      const replicas = (await sentinelClient.call('SENTINEL', 'REPLICAS', SENTINEL_NAME)) as string[][];
      const ready = replicas.map(fields).filter((r) => r.flags === 'slave' && r['master-link-status'] === 'ok');
      return ready.length === (near ? 2 : 1);
    });

    const nameOf = (port: number): string => nodes.find((n) => n.port === port)?.name ?? `port ${port}`;
    return {
      nodes,
      far,
      link,
      sentinelPort: sentinel.port,
      kill(names) {
        for (const node of nodes.filter((n) => names.includes(n.name))) {
          node.dead = true;
          node.client.disconnect();
          node.service.killSync();
        }
      },
      async sentinelPrimary() {
        const [, port] = (await sentinelClient.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME)) as string[];
        return nameOf(Number(port));
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Replicas a node's INFO replication lists as online. */
function onlineReplicas(info: Record<string, string>): number {
  return Object.entries(info).filter(([k, v]) => /^slave\d+$/.test(k) && v.includes('state=online')).length;
}

/** Sentinel's flat [name, value, name, value …] reply as an object. */
function fields(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}

// What the failover scenario starts for one run: its Redis deployment with Sentinel, and
// the outage armed against it. It also reads the deployment's ground truth for the
// timeline: each node's role and what it holds under the lock key, the primary Sentinel
// names, and the replication bytes the slow link holds or lost.
import type { StagedFault } from '@racelab/shared';
import type { LabHost } from '../../labnet/labHost.js';
import { watchNodeGrants, type NodeGrants } from '../kit/nodeGrants.js';
import { readKeyValue } from '../keyValue.js';
import type { Observed, RunFixture, RunStores } from '../types.js';
import { startDeployment, type Deployment, type RedisNode } from './deployment.js';
import { LOCK_KEY, NODES, OUTAGE_OVER_KEY, OUTAGE_START_KEY } from './keys.js';
import { armOutage, type Outage, type OutageRecord } from './outage.js';

export interface FixtureOptions {
  /** "zone": the primary dies with the near replica beside it; "primary": alone. */
  outage: 'primary' | 'zone';
  /** "slow": the far replica's link holds the primary's bytes; "none": it copies each write before the outage. */
  lag: 'slow' | 'none';
  downAfterMs: number;
  failoverTimeoutMs: number;
  /** Longest the failover may take before the run is failed, in ms. */
  promotionTimeoutMs: number;
  /** The far replica's lab host, where the run's lab made one. */
  farHost?: LabHost;
}

export interface FailoverFixture extends RunFixture {
  shared: { sentinelPort: number };
  outcome(): OutageRecord;
  /** The grants the server sees on the nodes, recorded in the run's grants table. */
  grants: NodeGrants;
  /** What the lab holds now: each Redis node, whom Sentinel names as primary, the far link. */
  truth(): Promise<Observed>;
  close(): Promise<void>;
}

export async function startFailoverFixture(stores: RunStores, options: FixtureOptions): Promise<FailoverFixture> {
  const zone = options.outage === 'zone';
  const deployment = await startDeployment({
    withNearReplica: zone,
    slowLink: options.lag === 'slow',
    downAfterMs: options.downAfterMs,
    failoverTimeoutMs: options.failoverTimeoutMs,
    ...(options.farHost ? { farHost: options.farHost } : {}),
  });
  let outage: Outage;
  try {
    // BLPOP blocks its connection: not the server's shared one. And it waits as long as the
    // workers take to get there, which on a loaded machine is more than the server's command
    // timeout (which the copy would inherit, and which failed the outage with "Command timed out").
    const control = stores.redis.duplicate({ commandTimeout: undefined });
    control.on('error', () => undefined);
    const keys = { start: stores.key(OUTAGE_START_KEY), over: stores.key(OUTAGE_OVER_KEY), lock: stores.key(LOCK_KEY) };
    const victims = zone ? [NODES.primary, NODES.near] : [NODES.primary];
    outage = armOutage(deployment, control, keys, { victims, awaitCopy: options.lag === 'none', timeoutMs: options.promotionTimeoutMs });
  } catch (error) {
    await deployment.close();
    throw error;
  }
  const lockKey = stores.key(LOCK_KEY);
  // A grant is a worker's token on any node: on the primary first, and replicas only copy it.
  const watched = deployment.nodes.map((node) => ({ client: node.client, dead: () => node.dead }));
  const grants = watchNodeGrants(stores, watched, lockKey, 1);

  return {
    shared: { sentinelPort: deployment.sentinelPort },
    // A worker asks Sentinel for the primary, then connects to whichever node it names.
    reaches: [
      { host: '127.0.0.1', port: deployment.sentinelPort },
      ...deployment.nodes.map((node) => ({ host: new URL(node.service.url).hostname, port: node.port })),
    ],
    // The slow link is a lag longer than the run: the kernel drops the primary's bytes (kernelLink.ts), or the lab's proxy holds them (replicationLink.ts).
    faults: options.lag === 'slow' ? [slowLink(deployment.link.mechanism)] : [],
    grants,
    lockHeld: (listener) => grants.onHeld(listener),
    outcome: () => outage.record(),
    async truth() {
      const nodes: Record<string, string> = {};
      for (const node of deployment.nodes) nodes[node.name] = await describeNode(node, lockKey);
      const named = await deployment.sentinelPrimary().catch(() => 'no answer');
      return {
        'Redis node': nodes,
        Sentinel: { 'names as primary': named },
        Network: { 'link to the far replica': await describeLink(deployment, options.lag) },
      };
    },
    async close() {
      await grants.stop().catch(() => undefined); // measure has said what went wrong
      await outage.stop();
      await deployment.close();
    },
  };
}

async function describeNode(node: RedisNode, lockKey: string): Promise<string> {
  if (node.dead) return 'dead (SIGKILL)';
  try {
    const [role, value] = await Promise.all([node.client.role(), readKeyValue(node.client, lockKey)]);
    const shown = role[0] === 'master' ? 'primary' : 'replica';
    return `${shown} · ${value === null ? 'no lock key' : `lock ${value}`}`;
  } catch {
    return 'no answer';
  }
}

/** The far replica's link, slow for the whole run. */
function slowLink(mechanism: string): StagedFault {
  const [node, peer] = [NODES.primary, NODES.far];
  return { fault: 'slow-link', target: `${node} → ${peer}`, mechanism, node, peer, worker: null, slowdown: null };
}

async function describeLink(deployment: Deployment, lag: FixtureOptions['lag']): Promise<string> {
  const { held, lost } = await deployment.link.bytes();
  if (lost > 0) return `cut · ${lost} bytes never arrived`;
  return lag === 'slow' ? `slow · ${held} bytes on the way` : 'no lag · passes every byte';
}

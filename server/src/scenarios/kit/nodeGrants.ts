// Grants the server sees on a lab's own Redis nodes, where the server's observer of the
// main Redis does not look. It watches the lock key on each node from its own connections
// (the key observer's sampling, with each node's TIME of the read; a connection that
// breaks is watched again, a node that died is not), and a worker's token is granted the
// first time `quorum` nodes hold it: one node for a primary and its replicas, a majority
// for Redlock. Each grant goes into the run's grants table (fencedLedger.ts) as it is
// seen, and a marker in the run's keys tells the worker it is on record: the worker waits
// for it before it acts (grantSeen), so its writes come after its grant's record. The
// nodes' TIME and PostgreSQL's clock_timestamp() read the same host wall clock.
import type { Redis } from 'ioredis';
import { KeyObserver, type KeyObservation } from '../../runs/keyObserver.js';
import type { RunStores, WorkerContext } from '../types.js';
import { AFTER_GRANT, insertGrant } from './fencedLedger.js';

/** In the run's keys: set once the grant of the lock to this token is on record. */
const grantSeenKey = (token: string): string => `grant-seen:${token}`;

/** How long a broken connection's watch waits before it starts again, and how often a worker looks for its marker, in ms. */
const RETRY_MS = 20;
const POLL_MS = 5;

export interface WatchedNode {
  /** The server's own connection to the node. */
  client: Redis;
  /** True once the node is gone for good (killed by the lab): no use watching it again. */
  dead(): boolean;
}

export interface NodeGrants {
  /** Takes a last look at every node and waits until every grant seen is on record; throws what went wrong meanwhile. */
  stop(): Promise<void>;
}

/** Starts watching `key` (as the nodes name it) on `nodes`; a token held by `quorum` of them is granted. */
export function watchNodeGrants(stores: RunStores, nodes: WatchedNode[], key: string, quorum: number): NodeGrants {
  const held: Array<string | null> = nodes.map(() => null);
  const granted = new Set<string>(); // a token is granted once: each job takes its own
  let recorded: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  let stopping = false;
  const observers: KeyObserver[] = [];
  const retries = new Set<NodeJS.Timeout>();

  const changed = (node: number, o: KeyObservation): void => {
    held[node] = o.value;
    const token = o.value;
    if (token === null || granted.has(token) || o.redisTimeUs === undefined) return;
    if (held.filter((v) => v === token).length < quorum) return;
    granted.add(token);
    const atUs = o.redisTimeUs;
    recorded = recorded
      .then(async () => {
        await insertGrant(stores, token, atUs);
        await stores.redis.set(stores.key(grantSeenKey(token)), '1');
      })
      .catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
      });
  };
  const watch = (i: number): void => {
    if (stopping || nodes[i]!.dead()) return;
    observers[i] = new KeyObserver(nodes[i]!.client, '', [key], (o) => changed(i, o), () => {
      const retry = setTimeout(() => (retries.delete(retry), watch(i)), RETRY_MS);
      retries.add(retry);
    });
  };
  nodes.forEach((_, i) => watch(i));

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        for (const retry of retries) clearTimeout(retry);
        await Promise.all(observers.map((o) => o.stop()));
        await recorded;
      })();
      return stopped.then(() => {
        if (failure) throw new Error(`could not record the grants seen on the nodes: ${failure.message}`);
      });
    },
  };
}

/**
 * Worker side: waits until the server has this worker's grant (its `token`) on record. The
 * fault plan may kill the worker first (AFTER_GRANT): the grant counts all the same.
 */
export async function grantSeen(ctx: WorkerContext, token: string): Promise<void> {
  await ctx.checkpoint(AFTER_GRANT);
  while ((await ctx.redis.get(ctx.key(grantSeenKey(token)))) === null) await ctx.sleep(POLL_MS);
}

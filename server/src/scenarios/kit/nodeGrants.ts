// Grants the server sees on a lab's own Redis nodes, where the server's observer of the
// main Redis does not look. It samples the lock key on each node from its own connections
// every few ms (value and the node's TIME, in one atomic read; a sample that fails is
// tried again, a node that died is left alone), and a worker's token is granted each time
// `quorum` live nodes come to hold it: one node for a primary and its replicas, a majority
// for Redlock. Each grant goes into the run's grants table (fencedLedger.ts) as it is seen,
// and a marker in the run's keys tells the worker it is on record: the worker waits for
// it before it acts (grantSeen), so its writes come after its grant's record. The nodes'
// TIME and PostgreSQL's clock_timestamp() read the same host wall clock; a node whose own
// clock a lab has moved (redlock's clock jump) says by how much, and its TIME is taken back
// by that much. The same reads say until when the lock's token is held by `quorum` nodes
// (each node's PTTL from its TIME): reported as it comes to be so held, and as a renewal
// makes it longer.
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { LUA_VALUE_OF } from '../keyValue.js';
import type { LockHeld, RunStores, WorkerContext } from '../types.js';
import { AFTER_GRANT, insertGrant, type GrantSource } from './fencedLedger.js';

/** In the run's keys: set once the grant of the lock to this token is on record. */
const grantSeenKey = (token: string): string => `grant-seen:${token}`;

/** How often the server samples each node, and a worker looks for its marker, in ms. */
const SAMPLE_MS = 5;
const POLL_MS = 5;

/** The node's TIME (seconds, microseconds), the key's value (as ../keyValue.ts shows it) and its PTTL, in one atomic read. */
const READ_KEY = `${LUA_VALUE_OF}
local now = redis.call('TIME')
return {now[1], now[2], valueOf(KEYS[1]), redis.call('PTTL', KEYS[1])}`;

/**
 * How much longer the quorum's hold must be than the last one reported to be reported
 * again: a renewal adds most of a lease, while two reads of one expiry differ by the
 * millisecond PTTL rounds to.
 */
const HELD_LONGER_MS = SAMPLE_MS;

export interface WatchedNode {
  /** The server's own connection to the node. */
  client: Redis;
  /** True once the node is gone for good (killed by the lab): no use watching it again. */
  dead(): boolean;
  /** How far the node's wall clock is from the host's now, in ms, where a lab moves it (labnet/movableClock.ts); absent: 0. */
  clockOffsetMs?(): number;
}

export interface NodeGrants {
  /** Calls `listener` each time a token comes to be held by `quorum` nodes, and each time that hold grows (one listener). */
  onHeld(listener: (held: LockHeld) => void): void;
  /** Takes a last look at every node and waits until every grant seen is on record; throws what went wrong meanwhile. */
  stop(): Promise<void>;
}

/** These grants as a scenario's metrics say where they come from: seen on `nodes`, granted `when` they held a token. */
export function nodeGrantSource(nodes: string, when: string): GrantSource {
  return {
    stores: 'PostgreSQL and Redis',
    text: `the grants the server saw on ${nodes} (${when}, read from the server's own connections, timed by the nodes' TIME)`,
  };
}

/** Starts watching `key` (as the nodes name it) on `nodes`; a token held by `quorum` of them is granted. */
export function watchNodeGrants(stores: RunStores, nodes: WatchedNode[], key: string, quorum: number): NodeGrants {
  const held: Array<string | null> = nodes.map(() => null);
  /** When each node lets its key go, in µs of the host's wall clock (null: no expiry). */
  const expiresUs: Array<number | null> = nodes.map(() => null);
  /** Until when `quorum` nodes hold each token, as last reported, in µs. */
  const reported = new Map<string, number>();
  let heldListener: ((held: LockHeld) => void) | undefined;
  let recorded: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  let stopping = false;
  const liveHolders = (token: string): number => held.filter((v, i) => v === token && !nodes[i]!.dead()).length;

  // A grant: a token comes to be held by `quorum` live nodes. A token copied to a replica
  // that already counts adds none; a token that a dead primary alone held, taken again on
  // the promoted replica, is a grant again (a lock that stores one value for every holder).
  const changed = (node: number, token: string | null, atUs: number, pttlMs: number): void => {
    const before = token === null ? 0 : liveHolders(token);
    const was = held[node];
    held[node] = token;
    expiresUs[node] = pttlMs >= 0 ? atUs + pttlMs * 1000 : null;
    if (token !== null) reportHold(token);
    if (token === null || token === was || before >= quorum || liveHolders(token) < quorum) return;
    recorded = recorded
      .then(async () => {
        await insertGrant(stores, token, atUs);
        await stores.redis.set(stores.key(grantSeenKey(token)), '1');
      })
      .catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
      });
  };
  // Until when `quorum` live nodes hold the token: the quorum-th latest of their expiries.
  const reportHold = (token: string): void => {
    const ends = held.flatMap((v, i) => (v === token && !nodes[i]!.dead() ? [expiresUs[i] ?? Number.POSITIVE_INFINITY] : []));
    if (ends.length < quorum) return;
    const untilUs = ends.sort((a, b) => b - a)[quorum - 1]!;
    const last = reported.get(token);
    if (!Number.isFinite(untilUs) || (last !== undefined && untilUs - last < HELD_LONGER_MS * 1000)) return;
    reported.set(token, untilUs);
    heldListener?.({ key, token, remainingMs: Math.max(0, Math.round(untilUs / 1000 - Date.now())) });
  };
  const sample = async (node: number): Promise<void> => {
    const watched = nodes[node]!;
    if (watched.dead()) return;
    try {
      const offsetMs = watched.clockOffsetMs?.() ?? 0;
      const [seconds, micros, value, pttlMs] = (await watched.client.eval(READ_KEY, 1, key)) as [number, number, string | null, number];
      // The clock moved during the read: which offset the TIME carries is unknown, so the next sample reads again.
      if ((watched.clockOffsetMs?.() ?? 0) !== offsetMs) return;
      changed(node, value ?? null, Number(seconds) * 1_000_000 + Number(micros) - offsetMs * 1000, Number(pttlMs));
    } catch {
      // A connection that broke (Sentinel drops a promoted replica's clients): the next sample tries again.
    }
  };
  const loops = nodes.map(async (_, i) => {
    while (!stopping && !nodes[i]!.dead()) {
      await sample(i);
      await sleep(SAMPLE_MS);
    }
  });

  let stopped: Promise<void> | undefined;
  return {
    onHeld(listener) {
      heldListener = listener;
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await Promise.all(loops);
        await Promise.all(nodes.map((_, i) => sample(i))); // one last look
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

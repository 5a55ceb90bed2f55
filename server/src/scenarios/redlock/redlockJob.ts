// What a redlock variant works with: the worker context, the five nodes as this worker's
// network reaches them, and the document job. The job's one effect is a write to the
// `documents` row; the row's trigger logs every write that reaches it (../kit/fencedLedger.ts),
// so the verdict counts what the database did, not what workers said.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { writeRow } from '../kit/fencedLedger.js';
import type { Grant } from '../kit/holdLease.js';
import { grantSeen } from '../kit/nodeGrants.js';
import { choiceParam, intParam, type WorkerContext } from '../types.js';
import { keepWriteOrder, waitForFreeLock } from './choreography.js';
import { jumpClock } from './clockJump.js';
import { MECHANISM } from '../../labnet/mechanisms.js';
import {
  CLOCK_FILE_KEY,
  delayRelayUrlKey,
  JUMPING_NODE,
  linkHostKey,
  LOCK_KEY,
  NODE_COUNT,
  nodeName,
  nodeUrlKey,
  PARTITION_KEY,
  viewUrlKey,
} from './keys.js';
import { startLink } from './blackhole.js';
import { isolatedLatch, rejoinedLatch, restoredLatch, slowedLatch } from '../../worker/latches.js';
import { asReach, decidingNode, reachableNodes } from './reach.js';
import { storedName } from '../keyAliases.js';
import { silentFor } from './silence.js';
import { pauseAgainstLock, type LockAsking } from './lockLeft.js';
import { pauseAsPlayed } from '../kit/leaseEdge.js';

export interface RedlockNode {
  name: string;
  /** This worker's connection to the node; to a node out of its reach, one that never answers. */
  redis: Redis;
  /** Does this worker's network reach the node? */
  inReach: boolean;
  /**
   * The client's timeout on a request to this node: resolves null once the node has been
   * silent for `ms`. In this lab's network that happens to a node out of reach only (after
   * `ms` of real time), or isolated (`ms` after the cut, or after the request when it is
   * sent while the node is cut): a node in reach answers, however late a busy machine makes
   * it, and so does one that has rejoined (silence.ts).
   */
  silence(ms: number): Promise<null>;
  /** The node's isolations from every worker ("isolate node-3", live or planned) and rejoins; for most runs, none. */
  cuts: NodeCuts;
  /** The node's slows ("slow node-3", live or planned) and restores; for most runs, none. */
  slowdowns: NodeSlows;
}

/** What this worker knows of one kind of a node's faults: the run sets a latch once the fault, or its end, is real. */
class NodeFaultRounds {
  private now = false;
  private readonly listeners = new Set<(on: boolean) => void>();

  /** Follows the node's rounds of the fault (`made`) and its end (`ended`), in order; `onChange` runs first at each. */
  constructor(
    ctx: Pick<WorkerContext, 'waitFor'>,
    node: string,
    latches: { made: (node: string, round: number) => string; ended: (node: string, round: number) => string },
    onChange: (on: boolean) => void,
  ) {
    void (async () => {
      for (let round = 1; ; round++) {
        await ctx.waitFor(latches.made(node, round));
        this.set(true, onChange);
        await ctx.waitFor(latches.ended(node, round));
        this.set(false, onChange);
      }
    })();
  }

  /** Is the fault on the node now (made, not ended since)? */
  protected get on(): boolean {
    return this.now;
  }

  /** Calls `listener` with whether the fault is on now, and again at each fault (true) and end (false) from now on. */
  follow(listener: (on: boolean) => void): void {
    listener(this.now);
    this.listeners.add(listener);
  }

  /** Resolves once the fault is on: at once when it is, else at its next round (for most runs, never). */
  protected whenOn(): Promise<void> {
    if (this.now) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (on: boolean): void => {
        if (!on) return;
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  private set(on: boolean, first: (on: boolean) => void): void {
    this.now = on;
    first(on);
    for (const listener of [...this.listeners]) listener(on);
  }
}

/** What this worker knows of a node's isolations. */
export class NodeCuts extends NodeFaultRounds {
  /** Follows the node's rounds of isolation and rejoin, in order; `onChange` runs first at each (the worker's own link). */
  constructor(ctx: Pick<WorkerContext, 'waitFor'>, node: string, onChange: (cut: boolean) => void = () => undefined) {
    super(ctx, node, { made: isolatedLatch, ended: rejoinedLatch }, onChange);
  }

  /** Is the node cut from this worker now (isolated, not rejoined since)? */
  get cut(): boolean {
    return this.on;
  }

  /** Resolves once the node is cut: at once when it is, else at its next isolation (for most runs, never). */
  whenCut(): Promise<void> {
    return this.whenOn();
  }
}

/** What this worker knows of a node's slows (the delay itself is the lab's, on the way to the node). */
export class NodeSlows extends NodeFaultRounds {
  constructor(ctx: Pick<WorkerContext, 'waitFor'>, node: string) {
    super(ctx, node, { made: slowedLatch, ended: restoredLatch }, () => undefined);
  }

  /** Is the node slowed now (slowed, not restored since)? */
  get slowed(): boolean {
    return this.on;
  }

  /** Resolves once the node is slowed: at once when it is, else at its next slow (for most runs, never). */
  whenSlowed(): Promise<void> {
    return this.whenOn();
  }
}

export interface RedlockJob extends WorkerContext {
  /** The five nodes, in order. */
  nodes: RedlockNode[];
  lockKey: string;
  /** This worker's own lock value (a library variant puts here the value its library stored, before enter()). */
  token: string;
  /** Lock length in ms. */
  leaseMs: number;
  /** Waits until the server has seen this worker's majority on the nodes and put its grant on record. */
  enter(): Promise<void>;
  /** On worker-1 the process is stopped for real here (SIGSTOP) for pauseMs, then continued. */
  pause(): Promise<void>;
  /** Edits the document for workMs. */
  work(): Promise<void>;
  /** Runs the update once newer holders have written; returns the rows updated. */
  write(sql: string, values: unknown[]): Promise<number>;
  /** Reports that no lock was taken, and why; resolves to null, the grant this worker did not get. */
  skip(reason: string): Promise<null>;
}

/** The steps of redlock-fenced that its mutants replace. */
export interface RedlockSteps {
  /** Takes the lock on a majority and its fence number; null (after saying so) when there is none. */
  acquire(job: RedlockJob): Promise<(Grant & { fence: number }) | null>;
  /** Writes the row with this content and fence; returns the rows updated. */
  write(job: RedlockJob, content: string, fence: number): Promise<number>;
}

export interface RedlockHarness {
  job: RedlockJob;
  /** worker-2's arrival (see choreography.ts). */
  waitForFreeLock(): Promise<void>;
  disconnect(): void;
}

/**
 * Resolves once `redis`, a connection to `node`, has answered a PING, or the node has been
 * isolated (it will not answer until it rejoins) or slowed (its answer may come after the
 * timeout a slowed node's requests get).
 */
export function connected(node: RedlockNode, redis: Redis): Promise<unknown> {
  const ping = redis.ping();
  const silenced = Promise.race([node.cuts.whenCut(), node.slowdowns.whenSlowed()]).then(() => {
    ping.catch(() => undefined); // its failure, later, is no one's to report
  });
  return Promise.race([ping, silenced]);
}

function connect(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectionName: 'racelab-worker' });
  redis.on('error', () => undefined); // a failing command reports it
  return redis;
}

/** Connects this worker to the nodes it reaches (and to the blackhole for the others); `asking`: how the variant's lock asks them. */
export async function redlockHarness(ctx: WorkerContext, asking: LockAsking): Promise<RedlockHarness> {
  const index = ctx.workerIds.indexOf(ctx.workerId);
  const reach = asReach(choiceParam(ctx.params, 'reach'));
  const reachable = reachableNodes(reach, index);
  // On a lab host, every node is reached over this worker's own link (cluster.ts).
  const linkHost = ctx.shared[linkHostKey(ctx.workerId)];
  const url = (i: number): string => {
    const node = new URL(String(ctx.shared[nodeUrlKey(i)]));
    if (linkHost !== undefined) node.hostname = String(linkHost);
    return node.toString();
  };
  // A node in reach is reached through a delay relay for it (the server's relay host), where the kernel has
  // no netem: a slow of the node is played there, on the connections made from the start.
  const reachedAt = (i: number): string => String(ctx.shared[delayRelayUrlKey(ctx.workerId, i)] ?? url(i));
  const kernelCut = ctx.shared[PARTITION_KEY] === MECHANISM.nftables;
  // Without the kernel's cut, this worker reaches each node in reach over a link of its own
  // (blackhole.ts) that an isolation of the node turns into a blackhole, and its rejoin back.
  const links = kernelCut ? [] : await Promise.all(reachable.map((i) => startLink(reachedAt(i))));
  const nodes: RedlockNode[] = Array.from({ length: NODE_COUNT }, (_, i) => {
    const inReach = reachable.includes(i);
    const link = links[reachable.indexOf(i)];
    const cuts = new NodeCuts(ctx, nodeName(i), (cut) => (cut ? link?.cut() : link?.rejoin()));
    const slowdowns = new NodeSlows(ctx, nodeName(i));
    return {
      name: nodeName(i),
      // Out of reach: the node itself behind the kernel's cut, or the blackhole.
      redis: connect(link?.url ?? (inReach ? reachedAt(i) : kernelCut ? url(i) : String(ctx.shared.blackholeUrl))),
      inReach,
      // A slowed node answers no earlier than twice its latency: from the slow on, the
      // timeout is a real timer, as any client's (silence.ts).
      silence: inReach ? (ms) => Promise.race([cuts.whenCut(), slowdowns.whenSlowed()]).then(() => silentFor(ms)) : silentFor,
      cuts,
      slowdowns,
    };
  });
  // The harness's own view of two nodes, whatever the partition or isolation: the
  // choreography's deciding node and the node whose clock jumps (on a lab host, through a
  // relay beside the node's port, see cluster.ts).
  const view = (i: number): string => String(ctx.shared[viewUrlKey(ctx.workerId, i)] ?? url(i));
  const deciding = connect(view(decidingNode(reach)));
  const jumping = connect(view(JUMPING_NODE));
  // Connected before the story starts, so a node's per-request timeout measures the request alone.
  await Promise.all([...reachable.map((i) => connected(nodes[i]!, nodes[i]!.redis)), deciding.ping(), jumping.ping()]);

  const workMs = intParam(ctx.params, 'workMs');
  const clockJumpMs = intParam(ctx.params, 'clockJumpMs');
  // The jumping node's clock file, where its own clock moves: this worker's process writes it (a lab host shares the filesystem).
  const clockFile = ctx.shared[CLOCK_FILE_KEY] === undefined ? undefined : String(ctx.shared[CLOCK_FILE_KEY]);
  const token = `${ctx.workerId}:${randomUUID().slice(0, 8)}`;
  const first = index === 0;
  const lockKey = storedName(ctx.key, LOCK_KEY); // a library's own key name, where it has one

  const job: RedlockJob = {
    ...ctx,
    nodes,
    lockKey,
    token,
    leaseMs: intParam(ctx.params, 'leaseMs'),
    async enter() {
      // The server records the grant it saw on the nodes; this waits for it (the fault plan may kill the worker first).
      await grantSeen(ctx, job.token);
      // Not worker-1's doing: the harness plays the jump right after the first grant, so it
      // strikes at the same point of every run.
      if (first && clockJumpMs > 0) await jumpClock(jumping, clockJumpMs, lockKey, clockFile);
      ctx.signal(`granted:${ctx.workerId}`);
    },
    async pause() {
      // Played past the lock's end on the deciding node when it would end at its edge (lockLeft.ts).
      if (first) await pauseAsPlayed(ctx, pauseAgainstLock(ctx.params, asking));
    },
    async work() {
      ctx.emit({ type: 'work-started', label: 'edit the document' });
      await ctx.sleep(workMs);
      ctx.emit({ type: 'work-finished', label: 'edit the document' });
    },
    async write(sql, values) {
      await keepWriteOrder(ctx, deciding, lockKey, job.token);
      return writeRow(ctx, sql, values);
    },
    async skip(reason) {
      ctx.emit({ type: 'lease-denied', key: lockKey, heldBy: null });
      ctx.emit({ type: 'job-skipped', reason });
      return null;
    },
  };

  return {
    job,
    waitForFreeLock: () => waitForFreeLock(ctx, deciding, nodeName(decidingNode(reach)), lockKey),
    disconnect() {
      for (const node of nodes) node.redis.disconnect();
      deciding.disconnect();
      jumping.disconnect();
      for (const link of links) void link.close();
    },
  };
}

import type { Params } from '@racelab/shared';
import { AFTER_GRANT, AFTER_WRITE } from '../../kit/fencedLedger.js';
import { holdLease, type Grant } from '../../kit/holdLease.js';
import { releaseIfMine } from '../../kit/releaseIfMine.js';
import { endsInsideLease } from '../../kit/leaseEdge.js';
import { defineVariant } from '../../types.js';
import { NODE_TIMEOUT_MS, pauseAgainstLock, type LockAsking } from '../lockLeft.js';
import type { RedlockJob, RedlockNode } from '../redlockJob.js';

/** A node's answer, or null when it fails or stays silent past the timeout. */
function ask<T>(node: RedlockNode, request: Promise<T>): Promise<T | null> {
  return Promise.race([request.catch(() => null), node.silence(NODE_TIMEOUT_MS)]);
}

/**
 * Redlock as antirez describes it: ask every node in turn for the same key, with a short
 * timeout each. The lock is held when a majority said yes and time is left of its life:
 * validity = lease − time spent asking − an allowance for clock drift.
 */
export async function acquireMajority(job: RedlockJob): Promise<{ validityMs: number; fromMs: number } | null> {
  const quorum = Math.floor(job.nodes.length / 2) + 1;
  const startedMs = job.now();
  const yes: string[] = [];
  for (const node of job.nodes) {
    const reply = await ask(node, node.redis.set(job.lockKey, job.token, 'PX', job.leaseMs, 'NX'));
    if (reply === 'OK') yes.push(node.name);
  }
  const fromMs = job.now(); // the validity counts from the end of the asking
  const elapsedMs = fromMs - startedMs;
  const driftMs = job.leaseMs * 0.01 + 2; // clocks run at slightly different rates
  const validityMs = Math.floor(job.leaseMs - elapsedMs - driftMs);
  job.emit({
    type: 'note',
    text: `${yes.length} of ${job.nodes.length} nodes said yes (${yes.join(', ') || 'none'}) in ${Math.round(elapsedMs)} ms; validity ${validityMs} ms`,
  });
  if (yes.length >= quorum && validityMs > 0) return { validityMs, fromMs };
  await releaseAll(job); // no majority: free the nodes that said yes, not only when their keys expire
  return null;
}

/** Deletes this client's key on every node (release-if-mine), in parallel; returns how many keys went. */
export async function releaseAll(job: RedlockJob): Promise<number> {
  const replies = await Promise.all(job.nodes.map((node) => ask(node, releaseIfMine(node.redis, job.lockKey, job.token))));
  return replies.reduce<number>((sum, deleted) => sum + Number(deleted ?? 0), 0);
}

/** The lock as a grant: its validity from the end of the asking; null (said so) without a majority. */
export async function takeMajority(job: RedlockJob): Promise<Grant | null> {
  const lock = await acquireMajority(job);
  return lock ? { ttlMs: lock.validityMs, fromMs: lock.fromMs } : job.skip('no majority of the nodes took the lock');
}

/**
 * Why a variant without a fence passes at `params`: worker-1's pause and work (its pause only,
 * for a lock that renews in time) end inside what is left of its lock, by the edge at least, so no
 * second majority forms before it writes. null: it is expected to fail.
 */
export function passesInsideLock(params: Params, asking: LockAsking): string | null {
  const left = pauseAgainstLock(params, asking);
  if (!endsInsideLease(left)) return null;
  const lost = [
    left.askingMs > 0 && `${left.askingMs} ms asking the nodes out of reach`,
    left.jumpMs > 0 && `node-3's ${left.jumpMs} ms clock jump`,
  ].filter(Boolean);
  const lock =
    lost.length > 0 ? `what is left of the lock after ${lost.join(' and ')} (${left.leaseMs} ms)` : `the lock's ${left.leaseMs} ms`;
  const acts = left.renews
    ? `worker-1's pause (${left.stallMs} ms) ends ${left.edgeMs} ms or more inside ${lock}, and its lock renews itself in time`
    : `worker-1's pause and work (${left.stallMs} + ${left.workMs} ms) end ${left.edgeMs} ms or more inside ${lock}`;
  return `${acts}: no second majority forms before it writes, so nothing is stale`;
}

/** How acquireMajority asks: one node after another, and nothing renews the lock. */
export const HAND_WRITTEN_ASKING: LockAsking = { asks: 'in-turn', renews: false };

/** The job, its lock released on every node. */
export const heldOnTheNodes = (job: RedlockJob) => ({ ...job, release: () => releaseAll(job) });

export default defineVariant<RedlockJob>({
  id: 'redlock',
  title: 'Redlock over five nodes, unconditional write',
  correct: false,
  summary:
    'worker-1 takes the lock on a majority of five independent Redis nodes, then its process stops. Every key expires; worker-2 takes a majority of its own and writes. worker-1 wakes up still believing it holds the lock, and its stale write lands.',
  figures:
    'five Redis nodes; worker-1 stopped 2.5 s holding all five; worker-2 takes a majority: holders 2, stale writes accepted 1 (a 1 s clock jump on node-3 in a split network gives two majorities with no pause at all)',
  source: import.meta.url,
  checkpoints: [AFTER_GRANT, AFTER_WRITE],
  // A second majority needs three nodes free of worker-1's key: in a split, worker-2's three
  // share only node-3 with worker-1, whose key the asking of the nodes out of reach has aged
  // and a clock jump ends early; otherwise every key lives the whole lease. worker-1 writes
  // after its pause and its work.
  expectedOtherwise: (params) => passesInsideLock(params, HAND_WRITTEN_ASKING),
  async run(job) {
    await holdLease(
      heldOnTheNodes(job),
      () => takeMajority(job),
      async () => {
        await job.pause(); // worker-1's process is stopped here for pauseMs: a GC pause, a VM migration
        await job.work();
        const content = `draft by ${job.workerId}`;
        // A majority said yes, so the write goes ahead: nothing here can tell it is too late.
        await job.write('update documents set content = $1, writer = $2 where id = 1', [content, job.workerId]);
        job.emit({ type: 'write-accepted', target: 'document', value: content });
      },
    );
  },
});

// redlock with a real lock library of several nodes: the library spans the lab's five
// nodes as this worker's network reaches them (a node out of reach times out), so a
// partition, worker-1's stop and node-3's clock jump meet the library's own majority.
// One variant per lock module that spans nodes (LockModule.spansNodes), all built here.
import type { Redis } from 'ioredis';
import type { LockModule } from '../../locks/lockAdapter.js';
import { LOCKS } from '../../locks/lockModules.js';
import { claimLeaseValue } from '../kit/fencedLedger.js';
import { ledgerLibraryFrame, writeUnderLibraryLock } from '../ledgerLibraryVariants.js';
import { holdLibraryLock } from '../libraryLock.js';
import { defineVariant, type VariantDefinition } from '../types.js';
import { LOCK_KEY } from './keys.js';
import { connected, type RedlockJob } from './redlockJob.js';
import { NODE_TIMEOUT_MS, renewalAtTheEdge, type LockAsking } from './lockLeft.js';
import { passesInsideLock } from './variants/redlock.js';

/** The library's own connections to the nodes: a node in reach answers, one out of reach times out as the hand-written Redlock's. */
async function libraryNodes(job: RedlockJob): Promise<Redis[]> {
  const nodes = job.nodes.map((node) => {
    const redis = node.redis.duplicate(node.inReach ? {} : { commandTimeout: NODE_TIMEOUT_MS });
    redis.on('error', () => undefined); // a command that fails reports it to the library
    // Isolated or slowed (already, for a worker that comes to the lock late, or from then on):
    // its requests time out as a node out of reach's (ioredis reads the option per command);
    // rejoined and restored, they wait for the node's answer again, as before.
    if (node.inReach) {
      const timeOut = (): void =>
        void (redis.options.commandTimeout = node.cuts.cut || node.slowdowns.slowed ? NODE_TIMEOUT_MS : undefined);
      node.cuts.follow(timeOut);
      node.slowdowns.follow(timeOut);
    }
    return redis;
  });
  // Connected before the story starts, so a node's timeout measures the request alone.
  await Promise.all(nodes.flatMap((redis, i) => (job.nodes[i]!.inReach ? [connected(job.nodes[i]!, redis)] : [])));
  return nodes;
}

/** How `module`'s lock asks the lab's nodes: all at once, for every answer or until a majority. */
export function libraryAsking(module: LockModule): LockAsking {
  return {
    asks: module.answersAtMajority ? 'until-majority' : 'all-at-once',
    renews: module.renews,
    ...(module.renewsAt === undefined ? {} : { renewsAt: module.renewsAt }),
  };
}

/** The redlock variant that runs `module`'s lock over the lab's five nodes around the document job. */
export function redlockLibraryVariant(module: LockModule): VariantDefinition<RedlockJob> {
  const frame = ledgerLibraryFrame(module, LOCK_KEY);
  return defineVariant<RedlockJob>({
    ...frame,
    refusedAt: (params) => frame.refusedAt?.(params) ?? renewalAtTheEdge(params, libraryAsking(module), module.name),
    renewsLease: module.renews,
    // The same lab as the hand-written Redlock's; a library asks the nodes all at once.
    expectedOtherwise: (params) => (module.fences ? null : passesInsideLock(params, libraryAsking(module))),
    async run(job) {
      const nodes = await libraryNodes(job);
      const near = nodes[job.nodes.findIndex((node) => node.inReach)]!; // where this worker reads the lock's value
      const where = { lab: { nodes }, store: { redis: near, key: job.lockKey } };
      await holdLibraryLock(
        job,
        module,
        LOCK_KEY,
        job.leaseMs,
        where,
        () => job.skip('no majority of the nodes took the lock'),
        async (grant) => {
          await claimLeaseValue(job, grant.value);
          job.token = grant.value; // the value the server looks for on a majority of the nodes
          await job.enter();
          await job.pause(); // worker-1's process is stopped here for pauseMs
          await job.work();
          await writeUnderLibraryLock(job, 'documents', 'document', grant, 0, job.write);
        },
      );
    },
  });
}

/** Every redlock variant with a lock library that spans several nodes. */
export const LIBRARY_VARIANTS = LOCKS.filter((m) => m.spansNodes).map(redlockLibraryVariant);

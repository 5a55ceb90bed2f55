// The lease-handover labs with a real lock library (fencing: the holder's process is
// stopped past its lease; event-loop-block: it blocks its own event loop, so a renewal
// timer cannot fire): one variant per lock module that keeps a lease in Redis, built here
// for both. The holder files the value the library stored (claimLeaseValue), so the grants
// the server saw in Redis go to the right worker; the write uses the lock's fence when it
// gives one, and is unconditional when it does not, as a user of that library would write it.
import type { LockModule } from '../locks/lockAdapter.js';
import { LOCKS } from '../locks/lockModules.js';
import { AFTER_GRANT, AFTER_WRITE, claimLeaseValue, grantOnRecord, writeRow } from './kit/fencedLedger.js';
import type { LeaseOfJob } from './kit/leaseOfJob.js';
import { endsInsideLease, stallOf } from './kit/leaseEdge.js';
import { actsInsideLease, type LeaseHandover } from './leaseHandover.js';
import { holdLibraryLock, libraryFrame, type LibraryGrant } from './libraryLock.js';
import type { Params } from '@racelab/shared';
import { defineVariant, type VariantDefinition, type WorkerContext } from './types.js';

/** What a lease-handover lab's job offers a library variant. */
export interface HandoverJob extends WorkerContext, Pick<LeaseOfJob, 'work' | 'skip'> {
  leaseMs: number;
}

export interface HandoverLab<Job extends HandoverJob> {
  /** The guarded table (one row, id 1, with content, fence and writer) and its name on the timeline. */
  row: { table: string; target: string };
  /** The fault between the grant and the work: worker-1's stall or block. */
  hold(job: Job): Promise<void> | void;
  /**
   * That fault in words ("pause") and the parameter that times it ("pauseMs"), and why a lock
   * that renews its lease passes when the fault ends inside it (`renewed`).
   */
  stall: { words: string; param: string; renewed: string };
}

/**
 * Why `module`, which gives no fence, is expected to pass at `params`: worker-1's stall ends
 * inside its lease (by its edge, kit/leaseEdge.ts) and, for a lock that does not renew it (in
 * time), its work too. null: it is expected to fail. A stalled process renews nothing; once it runs
 * again, a renewing lock keeps its lease for any work.
 */
function passesWithoutFence({ stall }: HandoverLab<never>, module: LockModule, params: Params): string | null {
  const against = stallOf(params, stall.param, module.renews);
  if (!against.renews) return actsInsideLease(params, stall.param, stall.words, 'writes before the lease can pass on');
  if (!endsInsideLease(against)) return null;
  return `worker-1's ${stall.words} ends ${against.edgeMs} ms or more inside its lease (${against.leaseMs} ms): ${stall.renewed}`;
}

/**
 * What every library variant of a lab with a fenced ledger (a guarded row, its log of
 * writes, the grants) shares: its frame, and its kind's verdict: correct with a fence only.
 */
export function ledgerLibraryFrame(module: LockModule, lockKey: string) {
  return {
    ...libraryFrame(module, lockKey),
    correct: module.fences,
    figures: module.fences ? 'stale writes rejected 1, last writer worker-2' : 'stale writes accepted 1, last writer worker-1',
    checkpoints: [AFTER_GRANT, AFTER_WRITE],
  };
}

/**
 * The guarded row's write as a user of the library writes it: with the lock's fence when it
 * gives one (the row is the judge), unconditional when it does not, for nothing then tells
 * the write the lock has passed on. `write` sends the UPDATE (after the lab's choreography);
 * `fenceOtherwise` is the number the row gets from a lock without a fence.
 */
export async function writeUnderLibraryLock(
  job: WorkerContext,
  table: string,
  target: string,
  grant: LibraryGrant,
  fenceOtherwise: number,
  write: (sql: string, values: unknown[]) => Promise<number>,
): Promise<void> {
  const content = `${target} by ${job.workerId}`;
  const guard = grant.fence === undefined ? '' : ' and fence < $2';
  const fence = grant.fence ?? fenceOtherwise;
  const sql = `update ${table} set content = $1, fence = $2, writer = $3 where id = 1${guard}`;
  if ((await write(sql, [content, fence, job.workerId])) === 1) job.emit({ type: 'write-accepted', target, value: content, fence });
  else job.emit({ type: 'write-rejected', target, value: content, fence, reason: 'the row holds this fence or a newer one' });
}

/** The variant of a lease-handover lab (`handover`) that runs `module`'s lock around the job. */
export function handoverLibraryVariant<Job extends HandoverJob>(
  handover: LeaseHandover,
  lab: HandoverLab<Job>,
  module: LockModule,
): VariantDefinition<Job> {
  return defineVariant<Job>({
    ...ledgerLibraryFrame(module, handover.lockKey),
    renewsLease: module.renews,
    expectedOtherwise: (params) => (module.fences ? null : passesWithoutFence(lab, module, params)),
    run: (job) =>
      holdLibraryLock(
        job,
        module,
        handover.lockKey,
        job.leaseMs,
        {},
        () => job.skip(),
        async (grant) => {
          await claimLeaseValue(job, grant.value);
          const grantNo = await grantOnRecord(job, handover.lockKey, grant.value);
          job.signal(`granted:${job.workerId}`);
          await lab.hold(job);
          await job.work();
          await writeUnderLibraryLock(job, lab.row.table, lab.row.target, grant, grantNo, async (sql, values) => {
            await handover.keepWriteOrder(job, grant.value);
            return writeRow(job, sql, values);
          });
        },
      ),
  });
}

/** A lab's library variants: every lock module that keeps an expiring lease in Redis. */
export function handoverLibraryVariants<Job extends HandoverJob>(handover: LeaseHandover, lab: HandoverLab<Job>): VariantDefinition<Job>[] {
  return LOCKS.filter((m) => m.redisKey(handover.lockKey) !== null).map((m) => handoverLibraryVariant(handover, lab, m));
}

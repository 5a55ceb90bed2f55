// failover with a real lock library: the library takes its lock on the primary Sentinel
// names (a lock of several nodes is given that one primary as its only node), the primary
// dies before its replica has the key, and worker-2 takes the same lock on the promoted
// replica. One variant per lock module that keeps its lock in Redis, all built here.
import type { LockModule } from '../../locks/lockAdapter.js';
import { LOCKS } from '../../locks/lockModules.js';
import { claimLeaseValue } from '../kit/fencedLedger.js';
import { grantSeen } from '../kit/nodeGrants.js';
import { ledgerLibraryFrame, writeUnderLibraryLock } from '../ledgerLibraryVariants.js';
import { holdLibraryLock, type LabLock } from '../libraryLock.js';
import { choiceParam, defineVariant, type VariantDefinition } from '../types.js';
import { startOutage } from './choreography.js';
import type { FailoverJob } from './failoverJob.js';
import { LOCK_KEY } from './keys.js';

/** The lab's primary as Sentinel names it: the lock's one Redis, and where the key is read. */
const onThePrimary = (job: FailoverJob): LabLock => ({ lab: { redis: job.lockRedis }, store: { redis: job.lockRedis, key: job.lockKey } });

/** The failover variant that runs `module`'s lock, on the lab's primary, around the document job. */
export function failoverLibraryVariant(module: LockModule): VariantDefinition<FailoverJob> {
  return defineVariant<FailoverJob>({
    ...ledgerLibraryFrame(module, LOCK_KEY),
    // With no lag the promoted replica has the lock, so worker-2 is refused: one holder.
    expectedOtherwise: (params) =>
      !module.fences && choiceParam(params, 'lag') === 'none'
        ? 'no replication lag: the promoted replica has the lock when the primary dies, so worker-2 is refused and there is one holder'
        : null,
    run: (job) =>
      holdLibraryLock(job, module, LOCK_KEY, job.leaseMs, onThePrimary(job), job.denied, async (grant) => {
        await claimLeaseValue(job, grant.value);
        // The server has seen the library's value on the primary: now the primary may die.
        await grantSeen(job, grant.value);
        await startOutage(job);
        await job.work(); // worker-1, the older holder, writes after worker-2
        await writeUnderLibraryLock(job, 'documents', 'document', grant, 0, job.write);
      }),
  });
}

/** Every failover variant with a lock library that keeps its lock in Redis (advisory-lock lives in PostgreSQL, which does not fail over here). */
export const LIBRARY_VARIANTS = LOCKS.filter((m) => m.redisKey(LOCK_KEY) !== null).map(failoverLibraryVariant);

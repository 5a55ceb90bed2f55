// duplicate-job with a real lock library: one variant per lock module (../../locks/),
// all built here, so every library meets the same job, faults and verdict. The page shows
// the library's adapter file: the library call as a user writes it.
import type { LockModule } from '../../locks/lockAdapter.js';
import { LOCKS } from '../../locks/lockModules.js';
import { holdLibraryLock, libraryFrame } from '../libraryLock.js';
import { defineVariant, type VariantDefinition } from '../types.js';
import { lockForgetsTheJob, nobodyLeftToRetry, secondLeaseLapses } from './expectedVerdicts.js';
import { LOCK_KEY, type NightlyJob } from './nightlyJob.js';

/** The duplicate-job variant that runs `module`'s lock around the nightly job. */
export function libraryVariant(module: LockModule): VariantDefinition<NightlyJob> {
  const inRedis = module.redisKey(LOCK_KEY) !== null;
  return defineVariant<NightlyJob>({
    ...libraryFrame(module, LOCK_KEY),
    correct: true,
    figures: 'e-mails 1, max concurrent holders 1',
    checkpoints: ['working', 'report-sent'],
    // As token-lua's: a lease that lapses mid-job lets in only a container that comes after
    // it, and the choreography has one come only when arriving late (lockForgetsTheJob, and
    // secondLeaseLapses when worker-1's fetch fails); arriving together, every container has
    // tried while the first held the lock, and one container has nobody to let in. Only a
    // lease in Redis that the library does not renew lapses at all: worker-2's lock, in
    // PostgreSQL or kept alive, is still there when the rest fire.
    expectedOtherwise: (params) =>
      lockForgetsTheJob(params) ?? nobodyLeftToRetry(params) ?? (inRedis && !module.renews ? secondLeaseLapses(params) : null),
    run: (job) =>
      holdLibraryLock(
        job,
        module,
        LOCK_KEY,
        job.leaseMs,
        {},
        (place) => job.skip(place.shownKey, inRedis ? undefined : null),
        () => job.sendReport({ renews: module.renews }),
      ),
  });
}

/** Every library variant of duplicate-job, in the order of LOCKS. */
export const LIBRARY_VARIANTS = LOCKS.map(libraryVariant);

// duplicate-job with a real lock library: one variant per lock module (../../locks/),
// all built here, so every library meets the same job, faults and verdict. The page shows
// the library's adapter file: the library call as a user writes it.
import type { LockModule } from '../../locks/lockAdapter.js';
import { LOCKS } from '../../locks/lockModules.js';
import { openLock } from '../../locks/openLock.js';
import { defineVariant, intParam, type VariantDefinition } from '../types.js';
import { lockForgetsTheJob, nobodyLeftToRetry, secondLeaseLapses } from './expectedVerdicts.js';
import { LOCK_KEY, type NightlyJob } from './nightlyJob.js';

/** The duplicate-job variant that runs `module`'s lock around the nightly job. */
export function libraryVariant(module: LockModule): VariantDefinition<NightlyJob> {
  const stored = module.redisKey(LOCK_KEY);
  return defineVariant<NightlyJob>({
    id: module.id,
    title: `${module.name} ${module.version}`,
    correct: true,
    summary: module.summary,
    figures: 'e-mails 1, max concurrent holders 1',
    source: module.source,
    library: { name: module.name, version: module.version },
    ...(stored && stored !== LOCK_KEY ? { keyAliases: { [LOCK_KEY]: stored } } : {}),
    checkpoints: ['working', 'report-sent'],
    expectedOtherwise: (params) =>
      lockForgetsTheJob(params) ??
      nobodyLeftToRetry(params) ??
      secondLeaseLapses(params) ??
      (stored !== null && !module.renews && intParam(params, 'workMs') > intParam(params, 'leaseMs')
        ? 'the work outlasts the lease and this lock does not renew itself: the lease passes on mid-job'
        : null),
    async run(job) {
      const { lock, close } = await openLock(module, job);
      const key = stored === null ? `${module.name}(${LOCK_KEY})` : job.key(LOCK_KEY);
      try {
        job.emit({ type: 'lease-requested', key });
        const sent = job.now();
        const handle = await lock.acquire(LOCK_KEY, job.leaseMs);
        if (handle === null) return await job.skip(key, stored === null ? null : undefined);
        const fence = lock.fence?.(handle);
        job.emit({ type: 'lease-acquired', key, ttlMs: stored === null ? null : job.leaseMs, fromMs: sent, ...(fence === undefined ? {} : { fence }) });
        try {
          await job.sendReport();
        } finally {
          const before = stored === null ? null : await job.redis.get(job.key(LOCK_KEY));
          await lock.release(handle);
          const after = stored === null ? null : await job.redis.get(job.key(LOCK_KEY));
          // What Redis shows the release did: 1 when it removed the key it found.
          job.emit({ type: 'lease-released', key, deleted: before !== null && after === null ? 1 : 0 });
        }
      } finally {
        await close();
      }
    },
  });
}

/** Every library variant of duplicate-job, in the order of LOCKS. */
export const LIBRARY_VARIANTS = LOCKS.map(libraryVariant);

import { randomUUID } from 'node:crypto';
import { defineMutant } from '../../types.js';
import { AFTER_JOB_ROW, type EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

// Deletes the key only while it still holds our token, in one atomic step.
const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
const RETRY_EVERY_MS = 10;

export default defineMutant<EntityJob>({
  id: 'key-per-job',
  of: 'per-entity-key',
  mistake: 'names the lock after the job, not after the entity the job touches',
  failsAt: {},
  title: 'One lock key per job',
  summary: 'Every job gets a key of its own, so no job ever waits: two jobs of the same customer run at once.',
  source: import.meta.url,
  checkpoints: [AFTER_JOB_ROW],
  async run(job) {
    // The mistake: a key per job is never contended, so it excludes nothing.
    const key = job.key(`${LOCK_KEY}:${job.jobId}`);
    const token = `${job.jobId}:${randomUUID()}`;
    job.emit({ type: 'lease-requested', key });
    let sent = job.now(); // the lease counts from the SET, not from its reply
    let ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    if (ok !== 'OK') await job.queue(key);
    // Every job must run, so a loser waits and tries again; it does not skip.
    while (ok !== 'OK') {
      await job.sleep(RETRY_EVERY_MS);
      sent = job.now();
      ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');
    }
    job.emit({ type: 'lease-acquired', key, ttlMs: job.leaseMs, fromMs: sent, token });

    try {
      await job.sync(key);
    } finally {
      const deleted = Number(await job.redis.eval(COMPARE_AND_DELETE, 1, key, token));
      job.emit({ type: 'lease-released', key, deleted });
    }
  },
});

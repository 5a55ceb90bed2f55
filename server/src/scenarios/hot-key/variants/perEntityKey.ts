import { randomUUID } from 'node:crypto';
import { defineVariant } from '../../types.js';
import type { EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

// Deletes the key only while it still holds our token, in one atomic step.
const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
const RETRY_EVERY_MS = 10;

export default defineVariant<EntityJob>({
  id: 'per-entity-key',
  title: 'One lock key per entity',
  correct: true,
  summary:
    "The lock key names the entity the job is about. Jobs of the same customer still wait for each other; jobs of different customers never do, so 5 run side by side.",
  source: import.meta.url,
  async run(job) {
    const key = job.key(`${LOCK_KEY}:${job.entity}`); // lock what the job touches, nothing more
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

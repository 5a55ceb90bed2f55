import { randomUUID } from 'node:crypto';
import { defineMutant } from '../../types.js';
import type { EntityJob } from '../entityJob.js';
import { LOCK_KEY } from '../keys.js';

// Deletes the key only while it still holds our token, in one atomic step.
const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
const RETRY_EVERY_MS = 10;

export default defineMutant<EntityJob>({
  id: 'entity-truncated',
  of: 'per-entity-key',
  mistake: 'keeps only the first 10 characters of the entity: customer-1 and customer-10 share a key',
  failsAt: { jobs: 10, entities: 10, workers: 2, jobMs: 100 },
  title: 'One lock key per entity, the name cut short',
  summary: 'The key names the entity, cut to 10 characters to keep keys short. Up to nine customers it is right; at ten, customer-10 waits for customer-1.',
  source: import.meta.url,
  async run(job) {
    // The mistake: a name cut short is no longer unique; two customers queue on one key.
    const key = job.key(`${LOCK_KEY}:${job.entity.slice(0, 10)}`);
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

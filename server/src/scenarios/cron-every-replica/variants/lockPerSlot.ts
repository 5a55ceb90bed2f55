import { defineSteppedVariant } from '../../types.js';
import { firesAsTheLockEnds, lateByMoreThanASlot } from '../expected.js';
import type { ReplicaJob } from '../replicaJob.js';

/** The steps of lock-per-slot that its near-misses replace. */
export interface SlotLockSteps {
  /** How long the slot's lock lives, in ms. */
  ttlMs(job: ReplicaJob): number;
  /** After the report, whatever becomes of it. */
  done(job: ReplicaJob): Promise<void>;
}

export default defineSteppedVariant<ReplicaJob, SlotLockSteps>({
  id: 'lock-per-slot',
  title: 'A lock per slot, held until the slot ends',
  correct: true,
  summary:
    "Each replica's croner still fires, but the first to SET the slot's key with NX sends the report; the key is never released and expires with the slot, so a replica whose clock is late finds it and skips. It holds while no clock is a whole slot late.",
  figures: 'croner fired 3 times: reports sent 1',
  source: import.meta.url,
  checkpoints: ['sending'],
  expectedOtherwise: lateByMoreThanASlot,
  refusedAt: firesAsTheLockEnds,
  steps: {
    // Until the slot ends by this replica's clock: a duration, so it means the same to Redis.
    ttlMs: (job) => job.slotEndMs - Date.now(),
    // No release: the key is the record that this slot has run. Redis drops it when the slot ends.
    done: async () => undefined,
  },
  async run(job, { ttlMs: lifeOf, done }) {
    const ttlMs = lifeOf(job);
    job.emit({ type: 'lease-requested', key: job.lockKey }); // one lock per slot, as this replica's clock names it
    const sent = job.now(); // the lease counts from the SET, not from its reply
    if ((await job.redis.set(job.lockKey, job.workerId, 'PX', ttlMs, 'NX')) !== 'OK') {
      job.emit({ type: 'lease-denied', key: job.lockKey, heldBy: await job.redis.get(job.lockKey) });
      job.skip(`another replica holds the lock of ${job.slot}`);
      return;
    }
    job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs, fromMs: sent });
    try {
      await job.sendReport();
    } finally {
      await done(job);
    }
  },
});

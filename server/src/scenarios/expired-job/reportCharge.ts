// A charge that landed, or one the database refused, as the worker reports it.
import type { ChargeQueue, QueuedJob } from './jobQueue.js';

/** Emits write-accepted for a charge that landed, write-rejected (with why) for one that did not. */
export function reportCharge(queue: ChargeQueue, job: QueuedJob, landed: boolean, reason: string): void {
  const value = `charge order ${job.id.slice(0, 8)}`;
  if (landed) queue.emit({ type: 'write-accepted', target: 'charges', value, fence: job.attempt });
  else queue.emit({ type: 'write-rejected', target: 'charges', value, fence: job.attempt, reason });
}

// Where a job queue ran a stalled job twice in the wild: each source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Stalled Jobs (BullMQ docs)',
    url: 'https://docs.bullmq.io/guide/workers/stalled-jobs',
    summary:
      'A job whose worker does not renew its lock in time is moved back to wait by the stalled-job check and processed again; the documentation tells handlers to expect it.',
  },
  {
    title: '[Bug]: Error: could not renew lock for job XXXX (bullmq #3183)',
    url: 'https://github.com/taskforcesh/bullmq/issues/3183',
    summary:
      "A maintainer explains the error: the job stalled while its worker blocked Node's event loop, another worker processed it, and the first one then completed it too.",
  },
  {
    title: 'Create better logic for lock handling (bull #308)',
    url: 'https://github.com/OptimalBits/bull/issues/308',
    summary:
      'A worker too slow to renew its lock saw the stalled-job mechanism hand its job to another worker, and the queue completed the same job twice.',
  },
];

// per-entity-key, with a job that gives up when its lock is taken.
import { takeLease } from '../../kit/takeLease.js';
import { mutantOf } from '../../types.js';
import perEntityKey from '../variants/perEntityKey.js';

export default mutantOf(perEntityKey, {
  id: 'loser-skips',
  mistake: 'a job that finds its lock taken skips, as a once-a-day job would, instead of waiting its turn',
  failsAt: {},
  title: 'One lock key per entity, losers skip',
  summary:
    'The right key, but the lock is used as if only one job had to run: a job of a busy customer gives up, and its work is never done.',
  source: import.meta.url,
  steps: {
    // The mistake: every job must run, but this one gives up when another holds the key.
    acquire: (job, lease) =>
      takeLease(lease, job.redis, async () => {
        await job.skip(`${job.entity} is locked`);
        return null;
      }),
  },
});

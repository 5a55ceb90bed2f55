import { mutantOf } from '../../types.js';
import databaseGuard from '../variants/databaseGuard.js';

export default mutantOf(databaseGuard, {
  id: 'unguarded-fallback',
  mistake: 'when the guarded update matches no row, writes again without the guard',
  failsAt: {},
  title: "Fence compared in the update's WHERE, with a fallback",
  summary:
    'The guarded update is right, but "0 rows" is read as "nothing written yet" and followed by a plain update: the refused stale write goes in by the side door.',
  source: import.meta.url,
  steps: {
    async write(job, lease) {
      const updated = await databaseGuard.steps.write(job, lease);
      // The mistake: a refusal is taken for a missing write, and the write bypasses the fence.
      if (updated === 0) await job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4', lease);
    },
  },
});

import { mutantOf } from '../../types.js';
import databaseGuard from '../variants/databaseGuard.js';

export default mutantOf(databaseGuard, {
  id: 'not-equal-guard',
  mistake: 'guards with fence <> $new (a different fence) instead of fence < $new (an older one)',
  failsAt: {},
  title: "Fence compared in the update's WHERE with <>",
  summary:
    'The guard asks whether the fence changed, not whether it grew: the stale fence 1 differs from the stored 2, so the stale write lands.',
  source: import.meta.url,
  steps: {
    // The mistake: "not the same fence" lets an older fence through.
    write: (job, lease) => job.write('update documents set content = $1, writer = $2, fence = $3 where id = $4 and fence <> $3', lease),
  },
});

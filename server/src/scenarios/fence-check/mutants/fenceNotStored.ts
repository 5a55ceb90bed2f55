import { mutantOf } from '../../types.js';
import databaseGuard from '../variants/databaseGuard.js';

export default mutantOf(databaseGuard, {
  id: 'fence-not-stored',
  mistake: 'compares the fence in the WHERE but never stores the new one in the SET',
  failsAt: {},
  title: "Fence compared in the update's WHERE, never stored",
  summary:
    "The guard is in the statement, but the row's fence stays 0: every fence is greater than 0, so the stale write lands after the newer one.",
  source: import.meta.url,
  steps: {
    // The mistake: the SET leaves the fence alone, so the WHERE compares against 0 forever.
    write: (job, lease) => job.write('update documents set content = $1, writer = $2 where id = $4 and fence < $3', lease),
  },
});

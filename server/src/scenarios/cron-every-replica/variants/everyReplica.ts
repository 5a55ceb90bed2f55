import { defineVariant } from '../../types.js';
import type { ReplicaJob } from '../replicaJob.js';

export default defineVariant<ReplicaJob>({
  id: 'every-replica',
  title: 'croner on every replica, nothing shared',
  correct: false,
  summary:
    'Every replica starts the same croner schedule, as three copies of one service do. Each fires for the slot by its own clock and sends the report: the slot is reported three times.',
  figures: 'croner fired 3 times: reports sent 3 (should be 1)',
  source: import.meta.url,
  checkpoints: ['sending'],
  async run(job) {
    // croner keeps this replica's schedule, and only this replica's: nothing says another has run the slot.
    await job.sendReport();
  },
});

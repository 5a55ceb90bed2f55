import { defineVariant } from '../../types.js';
import { onlyOneContainer, oneLeftToSend } from '../expectedVerdicts.js';
import type { NightlyJob } from '../nightlyJob.js';

export default defineVariant<NightlyJob>({
  id: 'no-lock',
  title: 'No lock',
  correct: false,
  summary: 'Every container runs the job, so every container sends the report.',
  figures: 'e-mails sent 3 (should be 1)',
  source: import.meta.url,
  checkpoints: ['report-sent'],
  expectedOtherwise: (params) => onlyOneContainer(params) ?? oneLeftToSend(params),
  async run(job) {
    await job.sendReport();
  },
});

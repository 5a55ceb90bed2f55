// Where pg-boss ran an expired job again while its first run went on, in the wild: each source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Expired jobs are not stopped (pg-boss #555)',
    url: 'https://github.com/timgit/pg-boss/issues/555',
    summary:
      'Long-running jobs with too short an expiry ran several times at once: pg-boss marked the job expired and retried it while the first run went on in the background, and the runs raced on the database.',
  },
  {
    title: '[TECH] Prévenir les incompréhensions due aux expirations de jobs (1024pix/pix #12012)',
    url: 'https://github.com/1024pix/pix/pull/12012',
    summary:
      "A team found that pg-boss's expiry does not stop the handler: the expired job is retried later while the first run continues, so they set the expiry to 48 hours.",
  },
  {
    title: 'Should expire_in_seconds set the state to expired? (pg-boss #443)',
    url: 'https://github.com/timgit/pg-boss/issues/443',
    summary:
      "A 5 s handler on a job that expires after 2 s runs to its end and finds its own job already failed with 'handler execution exceeded 2000ms'.",
  },
];

// Where one lock key for unrelated work turned parallel work into a queue of one: each
// source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'bug(lidar): unexpected serial resource check (Concourse #4940)',
    url: 'https://github.com/concourse/concourse/issues/4940',
    summary:
      'Resource checks locked on a configuration id that 65 pipelines shared, so their checks ran one after another and some took 5 to 20 minutes.',
  },
  {
    title: 'Improve lock granularity (Bacalhau #823)',
    url: 'https://github.com/bacalhau-project/bacalhau/issues/823',
    summary:
      'Most locks covered the whole in-memory database instead of one job id, so a stuck job could stall the whole network instead of only itself.',
  },
  {
    title: 'Queues: Preventing job overlaps (Laravel docs)',
    url: 'https://laravel.com/docs/queues#preventing-job-overlaps',
    summary:
      'The WithoutOverlapping middleware takes a key, such as the user id a credit-score job updates: jobs for the same user never overlap, jobs for different users run side by side.',
  },
];

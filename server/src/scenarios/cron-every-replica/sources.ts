// Where a scheduler started in every copy of a service ran each job once per copy, and what
// schedulers and platforms say about it: each source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Running multiple times (croner #86)',
    url: 'https://github.com/Hexagon/croner/issues/86',
    summary:
      'An application run as two PM2 instances gets every croner job twice; the maintainer suggests starting croner only in the instance whose pm_id is 0.',
  },
  {
    title: 'Node mail scheduler sending multiple mail behind multiple server instance hosted on cloud (node-cron #93)',
    url: 'https://github.com/node-cron/node-cron/issues/93',
    summary:
      'A daily reminder e-mail scheduled with node-cron reaches each customer once per instance of the app on Google Cloud; the answers: one instance for jobs, or a distributed lock.',
  },
  {
    title: 'Support for multi-instances of the same node server (cron #175)',
    url: 'https://github.com/kelektiv/node-cron/issues/175',
    summary:
      'Every process of a server spread over machines and cores launches the cron job, so the task runs once per process; the maintainers point to a lock in a database or Redis.',
  },
  {
    title: 'Scheduled Jobs and Custom Clock Processes (Heroku Dev Center)',
    url: 'https://devcenter.heroku.com/articles/scheduled-jobs-custom-clock-processes',
    summary:
      'Cron is ill-suited to horizontally scaled apps: the scheduler should run as a single process, or duplicate work gets scheduled unless complicated locking is added.',
  },
  {
    title: 'Cron runs on both servers in a cluster (dkron #75)',
    url: 'https://github.com/dkron-io/dkron/issues/75',
    summary:
      'Two clustered scheduler servers both run the same job for the same minute, their starts 185 ms apart, though only one is the leader.',
  },
];

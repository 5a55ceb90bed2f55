// Where nodes whose clocks disagree ran one scheduled slot twice, and what schedulers say
// about it: each source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'ShedLock README: lockAtLeastFor',
    url: 'https://github.com/lukas-krecan/ShedLock',
    summary:
      'The scheduler lock assumes synchronized clocks, and keeps a lock at least lockAtLeastFor “to prevent execution from multiple nodes in case of really short tasks and clock difference”.',
  },
  {
    title: 'Single job is cloning itself hundreds of times (meteor-job-collection #260)',
    url: 'https://github.com/vsivsi/meteor-job-collection/issues/260',
    summary:
      'The maintainer walks through a second server whose clock is an hour off: it finds a repeating job due again after the first server ran it, and the job is duplicated.',
  },
  {
    title: 'Can the db-scheduler still work when the clock is different between nodes? (db-scheduler #364)',
    url: 'https://github.com/kagkarlsson/db-scheduler/issues/364',
    summary:
      'A team wanting a cron job at most once across nodes asks about unsynchronized clocks; the maintainer concludes the scheduler is not independent of them: a node ahead can skip a scheduled time.',
  },
  {
    title: 'Service-job scheduler leader election excludes for the duration of the fire, not for the deadline (objectstack #14619)',
    url: 'https://github.com/objectstack-ai/objectstack/issues/14619',
    summary:
      'The lease is released in finally, so the exclusion lasts as long as the handler runs: replicas whose clock skew exceeds that runtime each fire the same schedule.',
  },
  {
    title: 'CronJob: Cron job limitations (Kubernetes docs)',
    url: 'https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/',
    summary: 'A CronJob creates a Job “about once” per scheduled time: two Jobs may be created, or none, so jobs should be idempotent.',
  },
];

// Where a job that every container runs at once was seen in the wild, and where the locks
// that try to stop it are documented: each source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'PM2 cluster mode - Jobs are duplicated (node-cron issue #159)',
    url: 'https://github.com/node-cron/node-cron/issues/159',
    summary:
      'An app run as 4 PM2 processes ran every scheduled job 4 times; the maintainers answer that node-cron has no distributed lock and point to Redis locks.',
  },
  {
    title: 'Daily digest emails being sent twice (Slice issue #769)',
    url: 'https://github.com/sleepepi/slice/issues/769',
    summary:
      'The digest cron ran wherever a process thought it led its group; once the workers got a leader of their own, every user received the daily e-mail twice.',
  },
  {
    title: 'SETNX: Design pattern: Locking with SETNX (Redis docs)',
    url: 'https://redis.io/docs/latest/commands/setnx/',
    summary:
      'The old SETNX lock and its deadlock: a client that crashes holding the key leaves it held; the page now discourages the pattern for SET with NX and an expiry.',
  },
  {
    title: 'Distributed Locks with Redis (Redis docs)',
    url: 'https://redis.io/docs/latest/develop/use/patterns/distributed-locks/',
    summary:
      'The single-instance lock done right: SET key <random value> NX PX, released by a compare-and-delete script, because a plain DEL can remove another client’s lock.',
  },
  {
    title: 'Explicit Locking: Advisory Locks (PostgreSQL docs)',
    url: 'https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS',
    summary:
      'Locks with an application-defined meaning, held by a session and released when it ends: the advisory-lock variant, with no expiry to outlive.',
  },
];

// Where Redlock's safety was argued over, and where its timing showed in a library: each
// source with what it says, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'How to do distributed locking (Martin Kleppmann)',
    url: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html',
    summary:
      'Redlock depends on timing: a client paused while its grants are in flight, or a clock that jumps on one node, lets two clients believe they hold the lock, and Redlock has no fencing token.',
  },
  {
    title: 'Is Redlock safe? (antirez)',
    url: 'https://antirez.com/news/101',
    summary:
      'The reply: Redlock accounts for the time spent acquiring, large clock jumps are an operations matter, and its random token can serve a check-and-set where a number cannot be had.',
  },
  {
    title: 'Distributed Locks with Redis: The Redlock Algorithm (Redis docs)',
    url: 'https://redis.io/docs/latest/develop/use/patterns/distributed-locks/',
    summary:
      'The algorithm as specified: a majority of independent nodes, and mutual exclusion only while the holder finishes within the validity time minus an allowance for clock drift.',
  },
  {
    title: 'Expiration time is in the past (node-redlock #296)',
    url: 'https://github.com/mike-marcacci/node-redlock/issues/296',
    summary:
      'With retries, acquire() could hand back a lock whose expiration had already passed, because the validity was counted from the first attempt, not the successful one.',
  },
];

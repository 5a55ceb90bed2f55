// Where a holder that stalled past its lease and wrote anyway was seen in the wild, and the
// articles of the lock debate that named the cure: each source with what it says, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'How to do distributed locking (Martin Kleppmann)',
    url: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html',
    summary:
      'A client paused by garbage collection past its lease wakes up and writes over the next holder’s work; the cure is a fencing token that the storage checks on every write.',
  },
  {
    title: 'Is Redlock safe? (antirez)',
    url: 'https://antirez.com/news/101',
    summary:
      'Redis’s author answers Kleppmann: he defends Redlock’s timing model and argues that a resource able to check a fencing token could check the lock’s unique value as well.',
  },
  {
    title: 'Jepsen: etcd 3.4.3',
    url: 'https://jepsen.io/analyses/etcd-3.4.3',
    summary:
      'etcd’s locks could not guarantee mutual exclusion: a holder whose lease ran out during a pause or a partition kept acting, and a bug skipped the lease check after waiting for a lock.',
  },
  {
    title: 'The Chubby lock service for loosely-coupled distributed systems (Google)',
    url: 'https://research.google/pubs/pub27897/',
    summary:
      'Google’s lock service hands a holder a sequencer with the lock’s generation number; servers check it, so a delayed request from a holder that lost the lock is refused.',
  },
  {
    title: 'Lost mutex when computer comes out of standby mode (redis-semaphore #24)',
    url: 'https://github.com/swarthy/redis-semaphore/issues/24',
    summary:
      'Ten servers shared one mutex; once the machine woke from standby the mutex was reported lost, and several instances were doing the same job at once.',
  },
];

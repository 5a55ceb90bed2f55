// Where a lease renewed by a timer in a blocked event loop was lost in the wild: each source
// with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Lost mutex for key ... (redis-semaphore #9)',
    url: 'https://github.com/swarthy/redis-semaphore/issues/9',
    summary:
      'Services lost their mutex whenever a breakpoint paused them; the maintainer explains that anything that blocks the event loop stops the refresh, so the key expires and another service takes it.',
  },
  {
    title: 'Mutex silently reacquires lock when expired between refreshes (redis-semaphore #175)',
    url: 'https://github.com/swarthy/redis-semaphore/issues/175',
    summary:
      'A delayed refresh let the lock expire, another instance took and released it, and the first one’s next refresh silently took it back, hiding that exclusion had been broken.',
  },
  {
    title: 'Don’t Block the Event Loop (or the Worker Pool) (Node.js docs)',
    url: 'https://nodejs.org/en/learn/asynchronous-work/dont-block-the-event-loop',
    summary:
      'Node.js runs every callback on one Event Loop: a callback that takes long, such as a huge JSON.parse, blocks every other one, timers included, until it returns.',
  },
  {
    title: 'Distributed locks and synchronizers: Lock watchdog (Redisson docs)',
    url: 'https://redisson.org/docs/data-and-services/locks-and-synchronizers/',
    summary:
      'The watchdog prolongs a lock’s expiration while its holder is alive (30 s by default): a renewal that works only while the holder can still run its timer.',
  },
];

// Where a lock or a write acknowledged by a primary was lost when a replica took over: each
// source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'Distributed Locks with Redis: Why failover-based implementations are not enough (Redis docs)',
    url: 'https://redis.io/docs/latest/develop/use/patterns/distributed-locks/',
    summary:
      'Client A takes the lock on the primary, the primary crashes before the key reaches its replica, the replica is promoted, and client B takes the same lock.',
  },
  {
    title: 'WAIT (Redis docs)',
    url: 'https://redis.io/docs/latest/commands/wait/',
    summary:
      'WAIT does not make Redis a strongly consistent store: even a write that replicas acknowledged can be lost when Sentinel promotes a replica that did not receive it.',
  },
  {
    title: 'Jepsen: Call me maybe: Redis (Kyle Kingsbury)',
    url: 'https://aphyr.com/posts/283-call-me-maybe-redis',
    summary:
      'During a partition the old primary kept acknowledging writes while Sentinel promoted another; when the partition healed Redis threw away 56% of the acknowledged writes.',
  },
  {
    title: 'Jepsen: Call me maybe: Redis redux (Kyle Kingsbury)',
    url: 'https://aphyr.com/posts/307-call-me-maybe-redis-redux',
    summary:
      'Tests WAIT, proposed to make replicated Redis consistent: synchronous acknowledgement alone is not enough, and with Sentinel’s failover acknowledged writes can still be lost.',
  },
  {
    title: 'Jepsen: Redis-Raft 1b3fbf6',
    url: 'https://jepsen.io/analyses/redis-raft-1b3fbf6',
    summary:
      'Recalls that Sentinel loses data during partitions and tests Redis-Raft, built to end it; development builds still showed split brain with lost updates and data loss on failover.',
  },
];

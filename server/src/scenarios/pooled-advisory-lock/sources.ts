// Where session-level advisory locks broke behind a transaction-pooling PgBouncer in the
// wild: each source with what happened there, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'PgBouncer features: SQL feature map for pooling modes',
    url: 'https://www.pgbouncer.org/features.html',
    summary:
      'PgBouncer’s own table marks session-level advisory locks as never supported in transaction pooling mode: the session belongs to whichever client the server connection serves next.',
  },
  {
    title: 'Rails migrations: advisory locks and PgBouncer transaction pooling (rails/rails #31190)',
    url: 'https://github.com/rails/rails/issues/31190',
    summary:
      'Rails migrations take a session-level advisory lock; behind PgBouncer in transaction mode the lock and its unlock ran on different server connections, and migrations failed or the lock was left behind.',
  },
  {
    title: 'Advisory Locks (PostgreSQL documentation)',
    url: 'https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS',
    summary:
      'A session-level advisory lock is held until released or the session ends, and is re-entrant: a session that already holds it is granted it again at once.',
  },
];

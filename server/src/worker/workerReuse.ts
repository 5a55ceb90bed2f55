// What a worker that serves another run checks first (workerMain.ts): its run's
// connections closed for good, and nothing else of the run still alive in the process.
import type { Redis } from 'ioredis';
import type pg from 'pg';

/**
 * What keeps a worker's event loop alive between runs and is not a run's: its IPC channel and
 * its stdio (pipes, or a terminal). Anything else once the run's connections are closed (a
 * timer, a socket, a child process, a file being read) was left behind by the run.
 */
const BETWEEN_RUNS = new Set(['PipeWrap', 'TTYWrap']);

/** Closes a run's connections and resolves once both are closed: nothing the run sent is still on its way after. */
export async function closeStores(redis: Redis, client: pg.Client): Promise<void> {
  const redisEnded = redis.status === 'end' ? Promise.resolve() : new Promise<void>((resolve) => redis.once('end', () => resolve()));
  redis.disconnect();
  await Promise.all([redisEnded, client.end().catch(() => undefined)]);
}

/**
 * The kinds of handle a finished run left keeping the process alive (Node's own names:
 * 'Timeout', 'TCPSocketWrap', …), none when it left nothing. Asked after a turn of the event
 * loop, so that the connections just closed have let go of their sockets. An unref'd timer
 * keeps nothing alive and is not seen here: racelab's own variants leave none, and a variant
 * of a lock library, whose module racelab does not own, is never kept (runs/run.ts).
 */
export async function leftBehind(): Promise<string[]> {
  await new Promise((resolve) => setImmediate(resolve));
  return process.getActiveResourcesInfo().filter((kind) => !BETWEEN_RUNS.has(kind));
}

// How a worker process says PostgreSQL refused its connection for want of a free one: an exit
// code of its own, which the pool turns into StoreFull and the run into a wait
// (runs/storeFull.ts), instead of a worker that "could not start".

/** A worker process's exit code when PostgreSQL refused its connection for want of a free one. */
export const STORE_FULL_EXIT_CODE = 22;
/** PostgreSQL's too_many_connections. */
const TOO_MANY_CONNECTIONS = '53300';

/** Whether `error` is PostgreSQL refusing a connection because all of them are taken. */
export function isTooManyConnections(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === TOO_MANY_CONNECTIONS || (typeof message === 'string' && message.includes('too many clients already'));
}

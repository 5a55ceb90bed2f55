// A worker's connection to the Redis that holds the lock: like a service in production,
// it asks Sentinel where the primary is, and asks again whenever the connection breaks.
import { Redis } from 'ioredis';
import type { WorkerContext } from '../types.js';
import { SENTINEL_NAME } from './keys.js';

const RECONNECT_EVERY_MS = 50;

/** Connects to the primary Sentinel names now; disconnect() it before the job ends. */
export async function connectThroughSentinel(ctx: WorkerContext): Promise<Redis> {
  const client = new Redis({
    sentinels: [{ host: '127.0.0.1', port: Number(ctx.shared.sentinelPort) }],
    name: SENTINEL_NAME,
    lazyConnect: true,
    retryStrategy: () => RECONNECT_EVERY_MS,
    sentinelRetryStrategy: () => RECONNECT_EVERY_MS,
  });
  // A dead primary shows up here while ioredis reconnects; the commands that fail say so.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

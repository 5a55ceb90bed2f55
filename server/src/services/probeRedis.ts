import { Redis } from 'ioredis';

/** Resolves when a Redis server answers PING at `url`; rejects (without retrying) otherwise. Timeout in ms. */
export async function probeRedis(url: string, timeoutMs = 1000): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // Without a listener ioredis prints "Unhandled error event"; the event also carries the real
  // cause (ECONNREFUSED...), while connect() itself only rejects with "Connection is closed."
  let socketError: unknown;
  client.on('error', (err) => {
    socketError ??= err;
  });
  try {
    await client.connect();
    const reply: string = await client.ping(); // typed 'PONG', checked all the same
    if (reply !== 'PONG') throw new Error(`unexpected PING reply ${reply}`);
  } catch (err) {
    throw socketError ?? err;
  } finally {
    // disconnect(), not quit(): no round trip. Skipped once the client has ended by itself (failed
    // connect): ioredis would then arm a 2 s "destroy stream" timer that nothing ever clears.
    if (client.status !== 'end') client.disconnect();
  }
}

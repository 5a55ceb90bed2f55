import { Redis } from 'ioredis';

// 1.5 s: a Redis that accepts and says nothing is told within 2 s; a healthy one answers in
// milliseconds, even on a machine whose cores are taken.
/** Resolves when a Redis server answers PING at `url` within `timeoutMs` (connecting included); rejects (without retrying) otherwise. */
export async function probeRedis(url: string, timeoutMs = 1500): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    // A probe owes no goodbye: a server that does not answer is let go at once, not 2 s later.
    disconnectTimeout: 0,
  });
  // Without a listener ioredis prints "Unhandled error event"; the event also carries the real
  // cause (ECONNREFUSED...), while connect() itself only rejects with "Connection is closed."
  let socketError: unknown;
  client.on('error', (err) => {
    socketError ??= err;
  });
  const answered = (async () => {
    await client.connect();
    const reply: string = await client.ping(); // typed 'PONG', checked all the same
    if (reply !== 'PONG') throw new Error(`unexpected PING reply ${reply}`);
  })();
  answered.catch(() => undefined); // settled after the deadline, maybe: no one's concern then
  // One deadline for all of it: on a server that accepts and never answers (stopped with
  // SIGSTOP), connect() alone fails only after its ready check's timeout and a closing wait.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([answered, deadline]);
  } catch (err) {
    throw socketError ?? err;
  } finally {
    clearTimeout(timer);
    // disconnect(), not quit(): no round trip. Skipped once the client has ended by itself.
    if (client.status !== 'end') client.disconnect();
  }
}

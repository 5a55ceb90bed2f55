// Redis's own account of what happens to a run's keys: keyspace notifications. Where
// sampling could miss a DEL followed at once by a SET, Redis reports both. Needs
// `notify-keyspace-events` with K (keyspace), g (DEL, EXPIRE…), $ (SET…) and x
// (expired); racelab adds those flags and falls back to sampling when CONFIG is refused.
import { Redis } from 'ioredis';

/** Flags racelab needs in notify-keyspace-events. */
const NEEDED_FLAGS = ['K', 'g', '$', 'x'];
const CHANNEL = /^__keyspace@\d+__:(.*)$/s;

export type KeyspaceListener = (key: string, event: string) => void;

/** Adds the flags racelab needs to notify-keyspace-events, keeping the ones already set. */
async function ensureFlags(admin: Redis): Promise<void> {
  const [, current = ''] = (await admin.config('GET', 'notify-keyspace-events')) as string[];
  const missing = NEEDED_FLAGS.filter((f) => !current.includes(f) && !(f !== 'K' && current.includes('A')));
  if (missing.length > 0) await admin.config('SET', 'notify-keyspace-events', current + missing.join(''));
}

export class KeyspaceEvents {
  private readonly listeners = new Map<string, KeyspaceListener>();
  private readonly lostListeners: Array<() => void> = [];
  private closed = false;

  private constructor(
    private readonly subscriber: Redis,
    admin: Redis,
    log: (line: string) => void,
  ) {
    subscriber.on('pmessage', (_pattern: string, channel: string, event: string) => {
      const key = CHANNEL.exec(channel)?.[1];
      if (key === undefined) return;
      for (const [prefix, listener] of this.listeners) if (key.startsWith(prefix)) listener(key.slice(prefix.length), event);
    });
    // A Redis that restarted has forgotten the CONFIG SET: set it again on every reconnect.
    // (ioredis subscribes again by itself.)
    const reapply = (): void => {
      if (this.closed) return;
      ensureFlags(admin).catch((error: unknown) => log(`could not turn keyspace notifications back on: ${(error as Error).message}`));
    };
    admin.on('ready', reapply);
    subscriber.on('ready', reapply);
    subscriber.on('close', () => {
      if (!this.closed) for (const listener of this.lostListeners) listener();
    });
  }

  /** Turns notifications on and subscribes to racelab's keys; null when this Redis will not notify. */
  static async open(redisUrl: string, admin: Redis, log: (line: string) => void): Promise<KeyspaceEvents | null> {
    try {
      await ensureFlags(admin);
    } catch (error) {
      log(`keyspace notifications unavailable (${(error as Error).message}); sampling keys instead`);
      return null;
    }
    const subscriber = new Redis(redisUrl, { connectionName: 'racelab-keyspace', maxRetriesPerRequest: 1 });
    subscriber.on('error', () => {
      // The key observer's sampling still reports what Redis holds.
    });
    await subscriber.psubscribe('__keyspace@*__:racelab:*');
    return new KeyspaceEvents(subscriber, admin, log);
  }

  /** Calls `listener` whenever the subscriber's connection closes (Redis restarted or went away). */
  onLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  /** Calls `listener` with the key name (without the prefix) and event of every change under `prefix`. */
  listen(prefix: string, listener: KeyspaceListener): () => void {
    this.listeners.set(prefix, listener);
    return () => this.listeners.delete(prefix);
  }

  close(): void {
    this.closed = true;
    this.subscriber.disconnect();
  }
}

// Notices a store that stops answering without closing its connections — a redis-server
// stopped with SIGSTOP, a PostgreSQL frozen on a full disk — which no error ever reports:
// commands just wait. While runs are going, the server pings both stores four times a second
// (PostgreSQL on a connection of the watch's own, so that a ping waits behind no query of a
// run and for no new connection); a ping unanswered for `silentMs` ends the runs going with the reason,
// and the server keeps serving (the next run starts once the store answers again).
import type { Redis } from 'ioredis';
import pg from 'pg';
import { CORE_STORES, POSTGRES_STORE, REDIS_STORE, type CoreStore } from '@racelab/shared';

export interface StoreWatchOptions {
  redis: Redis;
  /** The server's pool: the watch opens one connection of its own with the same options. */
  pg: pg.Pool;
  /** Are runs going? Nothing is pinged while the server is idle. */
  busy(): boolean;
  /** A store has not answered for silentMs: the reason, for the runs and the log. */
  onSilent(reason: string): void;
  /** How long a ping may go unanswered, in ms. */
  silentMs?: number;
  /** Between pings, in ms. */
  everyMs?: number;
}

/** How long a store may leave a ping unanswered before the runs going are ended, in ms. */
export const SILENT_MS = 1500;

export class StoreWatch {
  private readonly timer: NodeJS.Timeout;
  private readonly pg: pg.Pool;
  /** When each store's oldest unanswered ping was sent (performance.now()), if any. */
  private readonly waiting: Record<CoreStore, number | null> = { [REDIS_STORE]: null, [POSTGRES_STORE]: null };
  /** Stores whose silence has been reported: once per silence. */
  private readonly reported = new Set<CoreStore>();

  constructor(private readonly options: StoreWatchOptions) {
    const { options: server } = options.pg;
    this.pg = new pg.Pool({
      ...server,
      max: 1,
      idleTimeoutMillis: 0,
      // Kept open between pings, but like the watch's timer it never keeps the process alive.
      allowExitOnIdle: true,
      application_name: `${server.application_name ?? 'racelab'} store watch`,
    });
    this.pg.on('error', () => {
      // The pool replaces a lost connection; a store that went away is reported by the runs' own connections.
    });
    this.timer = setInterval(() => this.tick(), options.everyMs ?? 250).unref();
  }

  private tick(): void {
    const silentMs = this.options.silentMs ?? SILENT_MS;
    if (!this.options.busy()) return;
    const now = performance.now();
    for (const store of CORE_STORES) {
      const since = this.waiting[store];
      if (since !== null) {
        // Judged after this turn's I/O: a server that did not get the CPU for a while (a busy
        // machine) runs its due timers before it reads the answers that came meanwhile.
        if (now - since >= silentMs && !this.reported.has(store)) setImmediate(() => this.judge(store, since, now));
        continue; // one ping at a time per store
      }
      this.waiting[store] = now;
      const ping = store === REDIS_STORE ? this.options.redis.ping() : this.pg.query('select 1');
      ping.then(
        () => {
          this.waiting[store] = null;
          this.reported.delete(store);
        },
        // An error is an answer: a closed connection is reported by its own handlers.
        () => (this.waiting[store] = null),
      );
    }
  }

  /** Reports the store silent if the ping sent at `since` is still unanswered once the answers that came are read. */
  private judge(store: CoreStore, since: number, now: number): void {
    if (this.waiting[store] !== since || this.reported.has(store)) return;
    this.reported.add(store);
    this.options.onSilent(
      `${store} has not answered for ${Math.round((now - since) / 100) / 10} s (stopped or frozen): the run's numbers could not be read`,
    );
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pg.end();
  }
}

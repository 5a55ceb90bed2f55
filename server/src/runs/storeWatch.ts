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
/** Between pings, in ms. */
const EVERY_MS = 250;

/** A ping not answered yet. */
interface Ping {
  /** performance.now() when it was sent. */
  sentAt: number;
  /** How long this process stood still since (late ticks), in ms: not counted as the store's silence. */
  stoodMs: number;
}

export class StoreWatch {
  private readonly timer: NodeJS.Timeout;
  private readonly pg: pg.Pool;
  /** Each store's unanswered ping, if any. */
  private readonly waiting: Record<CoreStore, Ping | null> = { [REDIS_STORE]: null, [POSTGRES_STORE]: null };
  /** When the last tick ran (performance.now()). */
  private lastTick = performance.now();
  private readonly everyMs: number;
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
    this.everyMs = options.everyMs ?? EVERY_MS;
    this.timer = setInterval(() => this.tick(), this.everyMs).unref();
  }

  private tick(): void {
    const silentMs = this.options.silentMs ?? SILENT_MS;
    const now = performance.now();
    // A tick that comes late means this process did not run (a machine whose cores are taken):
    // an answer cannot be read while the process stands still, so that time is no store's silence.
    const stood = Math.max(0, now - this.lastTick - 2 * this.everyMs);
    this.lastTick = now;
    if (!this.options.busy()) return;
    for (const store of CORE_STORES) {
      const ping = this.waiting[store];
      if (ping !== null) {
        ping.stoodMs += stood;
        // Judged after this turn's I/O: a server that did not get the CPU for a while runs its
        // due timers before it reads the answers that came meanwhile.
        if (now - ping.sentAt - ping.stoodMs >= silentMs && !this.reported.has(store)) {
          setImmediate(() => this.judge(store, ping, now));
        }
        continue; // one ping at a time per store
      }
      const sent: Ping = { sentAt: now, stoodMs: 0 };
      this.waiting[store] = sent;
      const answer = store === REDIS_STORE ? this.options.redis.ping() : this.pg.query('select 1');
      answer.then(
        () => {
          this.waiting[store] = null;
          this.reported.delete(store);
        },
        // An error is an answer: a closed connection is reported by its own handlers.
        () => (this.waiting[store] = null),
      );
    }
  }

  /** Reports the store silent if `ping` is still unanswered once the answers that came are read. */
  private judge(store: CoreStore, ping: Ping, now: number): void {
    if (this.waiting[store] !== ping || this.reported.has(store)) return;
    this.reported.add(store);
    this.options.onSilent(
      `${store} has not answered for ${Math.round((now - ping.sentAt) / 100) / 10} s (stopped or frozen): the run's numbers could not be read`,
    );
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pg.end();
  }
}

// Notices a store that stops answering without closing its connections — a redis-server
// stopped with SIGSTOP, a PostgreSQL frozen on a full disk — which no error ever reports:
// commands just wait. While runs are going, the server pings both stores four times a second
// (PostgreSQL on a connection of the watch's own, so that a ping waits behind no query of a
// run and for no new connection); a ping unanswered for `silentMs` ends the runs going with the reason,
// and the server keeps serving (the next run starts once the store answers again). Each store's
// silence is also an AbortSignal (StoreSilence), so that whatever waits on that store — a run's
// clean-up, the playground's goodbyes — stops waiting at once and leaves the rest to the next sweep.
import type { Redis } from 'ioredis';
import pg from 'pg';
import { CORE_STORES, POSTGRES_STORE, REDIS_STORE, type CoreStore } from '@racelab/shared';

/** Which stores have gone silent, as signals that whatever waits on a store can race. */
export interface StoreSilence {
  /** Aborts (with the reason) when `store` goes silent, or when the stores are closed for good. */
  signal(store: CoreStore): AbortSignal;
}

export interface StoreWatchOptions {
  redis: Redis;
  /** The server's pool: the watch opens one connection of its own with the same options. */
  pg: pg.Pool;
  /** Are runs going? Nothing is pinged while the server is idle. */
  busy(): boolean;
  /** A store has not answered for silentMs: the reason, for the runs and the log. */
  onSilent(reason: string, store: CoreStore): void;
  /** A store reported silent answers again. */
  onAnswered?(store: CoreStore): void;
  /** How long a ping may go unanswered, in ms. */
  silentMs?: number;
  /** Between pings, in ms. */
  everyMs?: number;
}

/** How long a store may leave a ping unanswered before the runs going are ended, in ms. */
export const SILENT_MS = 1500;
/** Between pings, in ms: a store that freezes just after an answer is reported within EVERY_MS + SILENT_MS. */
const EVERY_MS = 100;

/** A ping not answered yet. */
interface Ping {
  /** performance.now() when it was sent. */
  sentAt: number;
  /** How long this process stood still since (late ticks), in ms: not counted as the store's silence. */
  stoodMs: number;
  /** Settles with the answer: null, or the error's words (an error is an answer too). */
  answer: Promise<string | null>;
}

/** A store's answer to a probe: its round trip, or why it has none. */
export type ProbeAnswer = { ok: true; ms: number } | { ok: false; reason: string };

export class StoreWatch implements StoreSilence {
  private readonly timer: NodeJS.Timeout;
  private readonly pg: pg.Pool;
  /** Each store's unanswered ping, if any. */
  private readonly waiting: Record<CoreStore, Ping | null> = { [REDIS_STORE]: null, [POSTGRES_STORE]: null };
  /** When the last tick ran (performance.now()). */
  private lastTick = performance.now();
  private readonly everyMs: number;
  /** Stores whose silence has been reported: once per silence. */
  private readonly reported = new Set<CoreStore>();
  /** Each store's signal: aborted while it is silent, replaced once it answers again. */
  private readonly silences: Record<CoreStore, AbortController> = {
    [REDIS_STORE]: new AbortController(),
    [POSTGRES_STORE]: new AbortController(),
  };
  private closedFor: string | null = null;
  /** Told every answered ping's round trip (metrics). */
  private readonly roundTrips = new Set<(store: CoreStore, ms: number) => void>();

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
    this.tick(); // the first pings now: a store frozen already is told EVERY_MS sooner
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
      this.send(store, now);
    }
  }

  /** Pings `store` (one ping at a time per store: the watch's ticks and probes share it). */
  private send(store: CoreStore, now = performance.now()): Ping {
    const pending = this.waiting[store];
    if (pending) return pending;
    const asked = store === REDIS_STORE ? this.options.redis.ping() : this.pg.query('select 1');
    const sent: Ping = {
      sentAt: now,
      stoodMs: 0,
      answer: asked.then(
        () => {
          this.waiting[store] = null;
          for (const told of this.roundTrips) told(store, performance.now() - now);
          if (this.reported.delete(store) && this.closedFor === null) {
            this.silences[store] = new AbortController();
            this.options.onAnswered?.(store);
          }
          return null;
        },
        // An error is an answer: a closed connection is reported by its own handlers.
        (error: unknown) => {
          this.waiting[store] = null;
          return error instanceof Error ? error.message : String(error);
        },
      ),
    };
    this.waiting[store] = sent;
    return sent;
  }

  /**
   * Asks `store` now, on the watch's own connections (the ping under way, if any, counts),
   * and waits at most `timeoutMs`: for a readiness probe, which must never wait on a frozen store.
   */
  async probe(store: CoreStore, timeoutMs: number): Promise<ProbeAnswer> {
    if (this.closedFor !== null) return { ok: false, reason: `${store} connections are closed: ${this.closedFor}` };
    const ping = this.send(store);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
    const answer = await Promise.race([ping.answer, late]);
    clearTimeout(timer);
    const waited = Math.round(performance.now() - ping.sentAt);
    if (answer === 'late') return { ok: false, reason: `${store} not answering (a ping unanswered for ${waited} ms)` };
    if (answer !== null) return { ok: false, reason: `${store} answered with an error: ${answer}` };
    return { ok: true, ms: performance.now() - ping.sentAt };
  }

  /** Tells `listener` each answered ping's round trip, in ms; returns the unsubscribe. */
  onRoundTrip(listener: (store: CoreStore, ms: number) => void): () => void {
    this.roundTrips.add(listener);
    return () => this.roundTrips.delete(listener);
  }

  /** Reports the store silent if `ping` is still unanswered once the answers that came are read. */
  private judge(store: CoreStore, ping: Ping, now: number): void {
    if (this.waiting[store] !== ping || this.reported.has(store)) return;
    this.reported.add(store);
    const silence = `${store} has not answered for ${Math.round((now - ping.sentAt) / 100) / 10} s (stopped or frozen)`;
    this.silences[store].abort(new Error(silence));
    this.options.onSilent(`${silence}: the run's numbers could not be read`, store);
  }

  signal(store: CoreStore): AbortSignal {
    return this.silences[store].signal;
  }

  /** True while `store` (or, without one, either store) has gone silent and not answered since. */
  isSilent(store?: CoreStore): boolean {
    return store ? this.reported.has(store) : this.reported.size > 0;
  }

  /** Aborts every store's signal for good: the connections are about to close, so nothing may start on them any more. */
  closeStores(reason: string): void {
    this.closedFor ??= reason;
    for (const store of CORE_STORES) this.silences[store].abort(new Error(reason));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.closeStores('the stores were closed');
    await goodbye(this.pg.end(), this.isSilent(POSTGRES_STORE));
  }
}

/**
 * Waits for a connection's goodbye (`end()`), unless its store is silent: a frozen server
 * never answers one, so it is not waited for. Never rejects: a failed goodbye is no one's concern.
 */
export async function goodbye(ending: Promise<unknown>, storeSilent: boolean): Promise<void> {
  const settled = ending.then(
    () => undefined,
    () => undefined,
  );
  if (!storeSilent) await settled;
}

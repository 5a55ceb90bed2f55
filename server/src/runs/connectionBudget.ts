// The PostgreSQL connections every racelab server sharing one database may hold together.
// PostgreSQL refuses a connection past max_connections ("sorry, too many clients already"),
// and a run that meets that refusal has lost its verdict. So a server reserves, before a run
// takes its slot, the connections that run will open (its worker processes', its own, its
// setup's), and gives them back when the run has settled; a run whose reservation does not
// fit waits in the line (http/queueDesk.ts) instead of starting.
//
// The reservations live in Redis, one entry per server, named by its lease
// (debris/serverLease.ts): racelab:budget:held (hash lease → connections held) and
// racelab:budget:alive (sorted set lease → when the entry expires, in ms of Redis's clock).
// Each server rewrites its entry every RENEW_EVERY_MS; one that stops (it died) drops out
// after LEASE_TTL_MS, and with it its reservations. One script checks and writes at once,
// so two servers cannot both take the last connections.
//
// What the budget is: max_connections, less the superuser's reserved ones, less what
// outsiders (anything that is not a racelab server of this room) hold, read from
// pg_stat_activity at every renewal, less a small margin for what starts between two reads.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { LEASE_TTL_MS, RENEW_EVERY_MS } from '../debris/serverLease.js';

/** Where the budget's two keys live: <prefix>held and <prefix>alive. */
export const BUDGET_PREFIX = 'racelab:budget:';

/** Connections left free for what starts between two readings of pg_stat_activity (a psql, a test elsewhere). */
export const OUTSIDERS_MARGIN = 3;
/** A run's connections besides its workers': its own (runs/runConnection.ts), and one for its setup and observers. */
export const RUN_OWN_CONNECTIONS = 2;

// KEYS: alive, held. ARGV: this server, its new total, the budget, the entry's TTL in ms,
// "force" (the connections are held already: written whatever the others hold).
// Drops the entries that expired, then writes this server's total unless it grows past the
// budget. Returns {written (1 or 0), what the other servers hold}.
const RESERVE_SCRIPT = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', nowMs)) do
  redis.call('ZREM', KEYS[1], gone)
  redis.call('HDEL', KEYS[2], gone)
end
local mine = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local others = -mine
for _, held in ipairs(redis.call('HVALS', KEYS[2])) do others = others + tonumber(held) end
local want = tonumber(ARGV[2])
if ARGV[5] ~= 'force' and want > mine and others + want > tonumber(ARGV[3]) then return {0, others} end
redis.call('HSET', KEYS[2], ARGV[1], want)
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[4]), ARGV[1])
return {1, others}
`;

export interface BudgetOptions {
  /** This server's entry: its lease key (debris/serverLease.ts MY_LEASE). */
  name: string;
  /** Connections the server holds whatever runs it has (its pool, its store watch, its spare, its warm workers). */
  baseline: number;
  /** The budget of the whole room, fixed (tests); read from PostgreSQL at each renewal when absent. */
  limit?: number;
  /** How long an entry outlives its last renewal, in ms (LEASE_TTL_MS unless a test says). */
  ttlMs?: number;
  /** How often the entry is rewritten and the budget read again, in ms (RENEW_EVERY_MS unless a test says). */
  renewEveryMs?: number;
  /** The keys' prefix (BUDGET_PREFIX unless a test keeps a room of its own). */
  keyPrefix?: string;
}

/** What PostgreSQL gives every client but the superuser, and what clients hold now. */
interface Capacity {
  usable: number;
  inUse: number;
  /** Clients that are surely not racelab's (named otherwise). */
  notRacelab: number;
}

export class ConnectionBudget {
  /** Connections this server holds by its reservations (its baseline included). */
  private held: number;
  private limit: number;
  /** Writes to Redis one after another, so that the entry follows `held` in order. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly freedListeners = new Set<() => void>();
  private closed = false;
  private readonly heldKey: string;
  private readonly aliveKey: string;

  private constructor(
    private readonly redis: Redis,
    private readonly pg: pg.Pool,
    private readonly options: BudgetOptions,
  ) {
    this.held = options.baseline;
    this.heldKey = `${options.keyPrefix ?? BUDGET_PREFIX}held`;
    this.aliveKey = `${options.keyPrefix ?? BUDGET_PREFIX}alive`;
    this.limit = options.limit ?? Number.POSITIVE_INFINITY;
    this.timer = setInterval(() => void this.renew().catch(() => undefined), options.renewEveryMs ?? RENEW_EVERY_MS).unref();
  }

  /** Reads the budget, writes this server's baseline, and keeps it renewed until close(). */
  static async open(redis: Redis, pool: pg.Pool, options: BudgetOptions): Promise<ConnectionBudget> {
    const budget = new ConnectionBudget(redis, pool, options);
    try {
      await budget.renew();
    } catch (error) {
      await budget.close();
      throw error;
    }
    return budget;
  }

  /** Connections a run of `workerCount` worker processes opens. */
  static costOf(workerCount: number): number {
    return workerCount + RUN_OWN_CONNECTIONS;
  }

  /** The room's budget as last read, in connections. */
  get roomLimit(): number {
    return this.limit;
  }

  /** Connections this server holds by its reservations now. */
  get reserved(): number {
    return this.held;
  }

  /** Reserves `count` connections for a run; false (nothing reserved) when the room's budget is short of them. */
  reserve(count: number): Promise<boolean> {
    return this.serially(async () => {
      if (this.closed) return false;
      const [written] = await this.write(this.held + count, false);
      if (written) this.held += count;
      return written;
    });
  }

  /** Gives back what a run reserved, once it has settled (its connections closed); listeners hear the budget freed. */
  release(count: number): void {
    this.held = Math.max(this.options.baseline, this.held - count);
    void this.serially(() => this.write(this.held, true)).then(
      () => {
        for (const listener of this.freedListeners) listener();
      },
      () => undefined,
    );
  }

  /** Tells `listener` whenever this server gave connections back; returns the unsubscribe. */
  onFreed(listener: () => void): () => void {
    this.freedListeners.add(listener);
    return () => this.freedListeners.delete(listener);
  }

  /** Stops renewing and takes this server's entry out (a stopping server holds nothing). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.chain.catch(() => undefined);
    await this.redis
      .multi()
      .hdel(this.heldKey, this.options.name)
      .zrem(this.aliveKey, this.options.name)
      .exec()
      .catch(() => undefined);
  }

  /** Reads the budget again and rewrites this server's entry (it holds those connections already). */
  private async renew(): Promise<void> {
    if (this.closed) return;
    if (this.options.limit === undefined) this.limit = await this.readLimit();
    await this.serially(() => this.write(this.held, true));
  }

  /**
   * The room's budget: what PostgreSQL gives clients, less what outsiders hold. Outsiders are
   * at least the clients not named racelab, and at least every client beyond what the room's
   * servers reserved (a racelab test elsewhere on the same database is an outsider too).
   */
  private async readLimit(): Promise<number> {
    const [capacity, room] = await Promise.all([readCapacity(this.pg), this.redis.hvals(this.heldKey)]);
    const reservedByRoom = room.reduce((sum, held) => sum + Number(held), 0);
    const outsiders = Math.max(capacity.notRacelab, capacity.inUse - reservedByRoom);
    return capacity.usable - outsiders - OUTSIDERS_MARGIN;
  }

  private async write(total: number, force: boolean): Promise<[boolean, number]> {
    const ttlMs = this.options.ttlMs ?? LEASE_TTL_MS;
    const limit = Number.isFinite(this.limit) ? this.limit : Number.MAX_SAFE_INTEGER;
    const answer = (await this.redis.eval(
      RESERVE_SCRIPT,
      2,
      this.aliveKey,
      this.heldKey,
      this.options.name,
      total,
      limit,
      ttlMs,
      force ? 'force' : 'check',
    )) as [number, number];
    return [answer[0] === 1, answer[1]];
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** max_connections less the superuser's reserved ones (and PostgreSQL 16's reserved_connections), and the clients now. */
async function readCapacity(pool: pg.Pool): Promise<Capacity> {
  const { rows } = await pool.query<{ usable: number; in_use: number; not_racelab: number }>(
    `select current_setting('max_connections')::int
              - current_setting('superuser_reserved_connections')::int
              - coalesce(nullif(current_setting('reserved_connections', true), ''), '0')::int as usable,
            count(*)::int as in_use,
            (count(*) filter (where application_name not like 'racelab%'))::int as not_racelab
       from pg_stat_activity where backend_type = 'client backend'`,
  );
  const row = rows[0]!;
  return { usable: row.usable, inUse: row.in_use, notRacelab: row.not_racelab };
}

// The room: what every server sharing this Redis is doing, for an instructor's view (roomRoutes.ts).
// A workshop may run several servers behind one proxy, so no server can answer for the room
// from its own memory. Each server writes its own figures to Redis instead, and the view reads
// every server's:
// - racelab:room:server:<id>, a hash of the server's figures, rewritten every second with a
//   TTL of a few seconds: a server that dies without a word drops out when its hash expires,
//   and one that stops deletes its hash at once.
// - racelab:room:servers, the set of ids that have written a hash: the reader drops the ids
//   whose hash has expired. A set, not a SCAN of the keyspace, which holds every run's keys.
// - racelab:room:finished, a hash of runs ended, "<scenario>|<verdict>" and
//   "<scenario>|unexpected", incremented by the server that ran each run.
// - racelab:room:since, when the counters began (the first server's start, or the last reset).
// The debris sweep takes only keys named racelab:<run id>: (ten hex digits), never these; when
// another server is seen dead (its lease gone, debris/serverLease.ts), a read drops its id.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Playground, RunKind } from '../runs/playground.js';
import type { Run } from '../runs/run.js';
import type { HealthRoutes } from './health.js';
import type { SocketServer } from './socketServer.js';

export const ROOM_KEY_PREFIX = 'racelab:room:';

export interface RoomOptions {
  /** The secret the view asks for (RACELAB_ROOM_TOKEN); the room view is off without one. */
  token?: string;
  /** The prefix of the room's keys: racelab:room: unless a test keeps its own room. */
  keyPrefix?: string;
  /** This server's name in the room: its host name, process id and a few random characters unless given. */
  serverId?: string;
  /** How often the server writes its figures, in ms. */
  everyMs?: number;
  /** How long its figures live without being rewritten, in ms: a few writes' worth. */
  ttlMs?: number;
}

/** One server's figures, as the view shows them. */
export interface RoomServer {
  id: string;
  connected: number;
  running: number;
  waiting: number;
  slots: number;
  ready: boolean;
  /** How long ago it last wrote its figures, from the hash's remaining TTL (no two servers' clocks compared). */
  seenMsAgo: number;
}

export interface RoomScenario {
  scenario: string;
  runs: number;
  byVerdict: { pass: number; fail: number; failed: number };
  /** Runs whose verdict was not the expected one: a correct variant that failed, or a broken one whose race did not show. */
  unexpected: number;
}

export interface RoomSnapshot {
  servers: RoomServer[];
  totals: { connected: number; running: number; waiting: number };
  scenarios: RoomScenario[];
  /** When the counters began (ISO 8601), or null before any server has written them. */
  since: string | null;
}

const VERDICTS = ['pass', 'fail', 'failed'] as const;
type CountedVerdict = (typeof VERDICTS)[number];

export class RoomBoard {
  readonly id: string;
  private readonly keys: { servers: string; finished: string; since: string; mine: string; prefix: string };
  private readonly everyMs: number;
  private readonly ttlMs: number;
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeGone: () => void;
  /** The write under way: writes never overlap, and close waits for it before deleting the hash. */
  private writing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly playground: Playground,
    private readonly sockets: SocketServer,
    private readonly health: HealthRoutes,
    options: RoomOptions = {},
  ) {
    const prefix = options.keyPrefix ?? ROOM_KEY_PREFIX;
    this.id = options.serverId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.keys = {
      prefix,
      servers: `${prefix}servers`,
      finished: `${prefix}finished`,
      since: `${prefix}since`,
      mine: `${prefix}server:${this.id}`,
    };
    this.everyMs = options.everyMs ?? 1000;
    this.ttlMs = options.ttlMs ?? 5000;
    this.unsubscribe = playground.onRun((run, about) => this.countRun(run, about));
    // A server that died leaves its id in the set: once its hash has expired, a read takes the id out.
    this.unsubscribeGone = playground.onServerGone(() => {
      setTimeout(() => void this.snapshot().catch(() => undefined), this.ttlMs + 500).unref();
    });
    void this.redis.set(this.keys.since, new Date().toISOString(), 'NX').catch(() => undefined);
    this.timer = setInterval(() => void this.write(), this.everyMs).unref();
    void this.write();
  }

  private get redis(): Redis {
    return this.playground.redis;
  }

  /** Writes this server's figures now, unless a write is still under way. */
  write(): Promise<void> {
    this.writing ??= this.writeFigures()
      // Redis down or frozen: the store watch and /readyz say so; the room simply misses a beat.
      .catch(() => undefined)
      .finally(() => (this.writing = null));
    return this.writing;
  }

  private async writeFigures(): Promise<void> {
    const { ready } = await this.health.readiness();
    if (this.closed) return;
    const figures = {
      connected: this.sockets.connections,
      running: this.playground.running.size,
      // Run starts waiting in line for a slot, as racelab_runs_queued says.
      waiting: this.sockets.desk.length,
      slots: this.sockets.limits.maxRunsPerServer,
      ready: ready ? 1 : 0,
      ttlMs: this.ttlMs,
    };
    await this.redis.multi().hset(this.keys.mine, figures).pexpire(this.keys.mine, this.ttlMs).sadd(this.keys.servers, this.id).exec();
  }

  /** Counts the run in the room once its last event is in, as serverMetrics.ts counts it for Prometheus. */
  private countRun(run: Run, about: { scenario: string; kind: RunKind }): void {
    const stop = run.onEvent((event) => {
      if (event.type !== 'run-finished' && event.type !== 'run-failed') return;
      stop();
      const verdict: CountedVerdict = event.type === 'run-finished' ? event.verdict : 'failed';
      const counting = this.redis.multi().hincrby(this.keys.finished, `${about.scenario}|${verdict}`, 1);
      if (event.type === 'run-finished' && event.verdict !== event.expectedVerdict) {
        counting.hincrby(this.keys.finished, `${about.scenario}|unexpected`, 1);
      }
      // A count lost to a Redis outage is one run fewer on the board; the run itself is unharmed.
      counting.exec().catch(() => undefined);
    });
  }

  /** Every live server's figures and the room's counters, read from Redis. */
  async snapshot(): Promise<RoomSnapshot> {
    const ids = (await this.redis.smembers(this.keys.servers)).sort();
    const reading = this.redis.pipeline();
    for (const id of ids) reading.hgetall(`${this.keys.prefix}server:${id}`).pttl(`${this.keys.prefix}server:${id}`);
    reading.hgetall(this.keys.finished).get(this.keys.since);
    const answers = (await reading.exec()) ?? [];
    const value = (at: number): unknown => {
      const [error, result] = answers[at] ?? [new Error('no answer'), null];
      if (error) throw error;
      return result;
    };
    const servers: RoomServer[] = [];
    const gone: string[] = [];
    ids.forEach((id, at) => {
      const server = serverOf(id, value(2 * at) as Record<string, string>, value(2 * at + 1) as number);
      if (server) servers.push(server);
      else gone.push(id);
    });
    // An id whose hash expired: its server stopped writing. Should it write again, it adds itself back.
    if (gone.length > 0) await this.redis.srem(this.keys.servers, ...gone);
    const totals = { connected: 0, running: 0, waiting: 0 };
    for (const server of servers) for (const name of ['connected', 'running', 'waiting'] as const) totals[name] += server[name];
    const finished = value(2 * ids.length) as Record<string, string>;
    return { servers, totals, scenarios: scenariosOf(finished), since: value(2 * ids.length + 1) as string | null };
  }

  /** Starts the counters again, for a new workshop: the servers stay, their figures are live anyway. */
  async reset(): Promise<string> {
    const since = new Date().toISOString();
    await this.redis.multi().del(this.keys.finished).set(this.keys.since, since).exec();
    return since;
  }

  /** Stops writing and leaves the room at once (rather than when the hash expires). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.unsubscribe();
    this.unsubscribeGone();
    await this.writing;
    await this.redis
      .multi()
      .del(this.keys.mine)
      .srem(this.keys.servers, this.id)
      .exec()
      .catch(() => undefined);
  }
}

/** A server's figures from its hash, or null when the hash has expired. */
function serverOf(id: string, hash: Record<string, string>, pttl: number): RoomServer | null {
  if (!hash || Object.keys(hash).length === 0 || pttl < 0) return null;
  const number = (name: string): number => Number(hash[name] ?? 0) || 0;
  return {
    id,
    connected: number('connected'),
    running: number('running'),
    waiting: number('waiting'),
    slots: number('slots'),
    ready: hash.ready === '1',
    seenMsAgo: Math.max(0, number('ttlMs') - pttl),
  };
}

/** The counters as one row per scenario, the busiest first. */
function scenariosOf(finished: Record<string, string> | null): RoomScenario[] {
  const rows = new Map<string, RoomScenario>();
  for (const [field, count] of Object.entries(finished ?? {})) {
    const cut = field.lastIndexOf('|');
    if (cut <= 0) continue;
    const scenario = field.slice(0, cut);
    const what = field.slice(cut + 1);
    let row = rows.get(scenario);
    if (!row) {
      row = { scenario, runs: 0, byVerdict: { pass: 0, fail: 0, failed: 0 }, unexpected: 0 };
      rows.set(scenario, row);
    }
    const n = Number(count) || 0;
    if (what === 'unexpected') row.unexpected += n;
    else if ((VERDICTS as readonly string[]).includes(what)) {
      row.byVerdict[what as CountedVerdict] += n;
      row.runs += n;
    }
  }
  return [...rows.values()].sort((a, b) => b.runs - a.runs || a.scenario.localeCompare(b.scenario));
}

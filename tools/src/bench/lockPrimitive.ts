// Lock primitive: one acquire + release cycle of racelab's lock (tools/src/locks) against
// redis-semaphore's Mutex, redlock 4 and @sesamecare-oss/redlock on the same single Redis,
// and against the limit of two round trips measured with plain commands (SET NX PX, DEL).
// Sequentially on one connection, and with 50 clients (50 connections, each its own key,
// so no cycle waits for another: this is the primitive's cost, not a retry policy's).
// Each round interleaves short slices (every contestant once per slice, the order
// rotating) so a noisy moment of the machine hurts all of them alike; ratios are taken
// within a round.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Mutex } from 'redis-semaphore';
import Redlock from 'redlock';
import { Redlock as SesameRedlock } from '@sesamecare-oss/redlock';
import { acquire, release } from '../locks/index.js';
import { RELEASE_SCRIPT } from '../locks/releaseScript.js';
import type { BenchResult, Figure } from './figure.js';
import { percentile } from './stats.js';

const SECTION = 'Lock primitive';
const TTL_MS = 10_000;
const CLIENTS = 50;
/** Slices a round is made of, each contestant once per slice. */
const SLICES = 8;

type Cycle = (key: string) => Promise<void>;
interface Contestant {
  name: string;
  /** One cycle factory per connection. */
  make(redis: Redis): Cycle;
}

const contestants: Contestant[] = [
  {
    name: 'racelab lock',
    make: (redis) => async (key) => {
      const lock = await acquire(redis, key, { ttlMs: TTL_MS });
      if (!lock) throw new Error(`racelab lock: ${key} was held`);
      await release(redis, lock);
    },
  },
  {
    name: 'redis-semaphore Mutex',
    make: (redis) => async (key) => {
      // No auto-refresh timer: racelab's lock has none either; this is the primitive alone.
      const mutex = new Mutex(redis, key, { lockTimeout: TTL_MS, acquireTimeout: 1000, retryInterval: 5, refreshInterval: 0 });
      await mutex.acquire();
      await mutex.release();
    },
  },
  {
    name: 'redlock 4',
    make: (redis) => {
      const redlock = new Redlock([redis], { retryCount: 0, driftFactor: 0.01 });
      redlock.on('clientError', () => undefined);
      return async (key) => {
        const lock = await redlock.lock(key, TTL_MS);
        await lock.unlock();
      };
    },
  },
  {
    name: '@sesamecare-oss/redlock',
    make: (redis) => {
      const redlock = new SesameRedlock([redis], { retryCount: 0, automaticExtensionThreshold: 0 });
      return async (key) => {
        const lock = await redlock.acquire([key], TTL_MS);
        await lock.release();
      };
    },
  },
  {
    // Not a contestant: the same two commands as racelab's lock, called straight on ioredis
    // with no library around them, to tell library overhead from the Lua release's own cost.
    name: 'plain calls: SET NX PX + EVALSHA compare-and-delete',
    make: (redis) => async (key) => {
      await redis.set(key, 'x', 'PX', TTL_MS, 'NX');
      await redis.evalsha(RELEASE_SCRIPT.sha1, 1, key, 'x');
    },
  },
  {
    name: 'limit: SET NX PX + DEL',
    make: (redis) => async (key) => {
      await redis.set(key, 'x', 'PX', TTL_MS, 'NX');
      await redis.del(key);
    },
  },
];

/** Runs `conns.length` loops (each on its own connection and key) for `ms`; the cycles done and the ms taken. */
async function slice(conns: Redis[], contestant: Contestant, ms: number, prefix: string): Promise<{ count: number; ms: number }> {
  const cycles = conns.map((c) => contestant.make(c));
  let count = 0;
  let stop = false;
  const loop = async (cycle: Cycle, i: number) => {
    const key = `${prefix}${i}`;
    while (!stop) {
      await cycle(key);
      count++;
    }
  };
  const started = performance.now();
  const running = conns.map((_, i) => loop(cycles[i]!, i));
  await new Promise((r) => setTimeout(r, ms));
  stop = true;
  await Promise.all(running); // cycles in flight finish and are counted, inside the time taken
  return { count, ms: performance.now() - started };
}

/** Cycles a second of each contestant over one round of interleaved slices. */
async function round(conns: Redis[], roundMs: number, prefix: string, rotate: number): Promise<Map<string, number>> {
  const totals = new Map(contestants.map((c) => [c.name, { count: 0, ms: 0 }]));
  for (let k = 0; k < SLICES; k++) {
    for (let j = 0; j < contestants.length; j++) {
      const c = contestants[(j + k + rotate) % contestants.length]!;
      const r = await slice(conns, c, roundMs / SLICES, prefix);
      const t = totals.get(c.name)!;
      t.count += r.count;
      t.ms += r.ms;
    }
  }
  return new Map([...totals].map(([name, t]) => [name, (t.count * 1000) / t.ms]));
}

export async function benchLockPrimitive(redisUrl: string, rounds = 5, roundMs = 1000): Promise<BenchResult> {
  const conns = Array.from({ length: CLIENTS }, () => new Redis(redisUrl, { maxRetriesPerRequest: 1 }));
  await Promise.all(conns.map((c) => c.ping()));
  await conns[0]!.script('LOAD', RELEASE_SCRIPT.source); // the plain-calls row sends EVALSHA with no fallback
  const prefix = `racelab-bench:lock:${randomUUID()}:`;
  const seq = new Map<string, number[]>(contestants.map((c) => [c.name, []]));
  const conc = new Map<string, number[]>(contestants.map((c) => [c.name, []]));
  const ratio = {
    seqVsSemaphore: [] as number[],
    concVsSemaphore: [] as number[],
    seqVsLimit: [] as number[],
    concVsLimit: [] as number[],
    seqVsPlainLua: [] as number[],
    luaVsLimit: [] as number[],
  };
  try {
    await round(conns, 1000, `${prefix}jit:`, 0); // untimed: JIT, script caches (the plain EVALSHA needs the script loaded), connections
    for (let r = 0; r < rounds; r++) {
      const s = await round(conns.slice(0, 1), roundMs, `${prefix}${r}:seq:`, r);
      const c = await round(conns, roundMs, `${prefix}${r}:conc:`, r);
      for (const contestant of contestants) {
        seq.get(contestant.name)!.push(s.get(contestant.name)!);
        conc.get(contestant.name)!.push(c.get(contestant.name)!);
      }
      ratio.seqVsSemaphore.push(s.get('racelab lock')! / s.get('redis-semaphore Mutex')!);
      ratio.concVsSemaphore.push(c.get('racelab lock')! / c.get('redis-semaphore Mutex')!);
      ratio.seqVsLimit.push(s.get('racelab lock')! / s.get('limit: SET NX PX + DEL')!);
      ratio.concVsLimit.push(c.get('racelab lock')! / c.get('limit: SET NX PX + DEL')!);
      ratio.seqVsPlainLua.push(s.get('racelab lock')! / s.get('plain calls: SET NX PX + EVALSHA compare-and-delete')!);
      ratio.luaVsLimit.push(s.get('plain calls: SET NX PX + EVALSHA compare-and-delete')! / s.get('limit: SET NX PX + DEL')!);
    }
  } finally {
    conns.forEach((c) => c.disconnect());
  }

  const figures: Figure[] = [];
  for (const contestant of contestants) {
    figures.push({
      section: SECTION,
      name: `${contestant.name}, sequential (1 client)`,
      unit: 'cycles/s',
      samples: seq.get(contestant.name)!,
      sampleOf: `round of ${roundMs / 1000} s`,
    });
  }
  for (const contestant of contestants) {
    figures.push({
      section: SECTION,
      name: `${contestant.name}, ${CLIENTS} clients`,
      unit: 'cycles/s',
      samples: conc.get(contestant.name)!,
      sampleOf: `round of ${roundMs / 1000} s`,
    });
  }
  figures.push(
    {
      section: SECTION,
      name: 'racelab ÷ redis-semaphore, sequential',
      unit: '×',
      samples: ratio.seqVsSemaphore,
      sampleOf: 'round',
      target: { stat: 'median', op: '>=', value: 1 },
    },
    {
      section: SECTION,
      name: `racelab ÷ redis-semaphore, ${CLIENTS} clients`,
      unit: '×',
      samples: ratio.concVsSemaphore,
      sampleOf: 'round',
      target: { stat: 'median', op: '>=', value: 1 },
    },
    {
      section: SECTION,
      name: 'racelab ÷ two-round-trip limit, sequential',
      unit: '×',
      samples: ratio.seqVsLimit,
      sampleOf: 'round',
      target: { stat: 'median', op: '>=', value: 0.9 },
    },
    {
      section: SECTION,
      name: `racelab ÷ two-round-trip limit, ${CLIENTS} clients`,
      unit: '×',
      samples: ratio.concVsLimit,
      sampleOf: 'round',
    },
    {
      section: SECTION,
      name: 'racelab ÷ its own two commands as plain calls, sequential',
      unit: '×',
      samples: ratio.seqVsPlainLua,
      sampleOf: 'round',
      note: 'library overhead',
    },
    {
      section: SECTION,
      name: 'plain SET + EVALSHA ÷ plain SET + DEL, sequential',
      unit: '×',
      samples: ratio.luaVsLimit,
      sampleOf: 'round',
      note: 'cost of the Lua release itself',
    },
  );
  const seqMedian = percentile(seq.get('racelab lock')!, 50);
  return {
    figures,
    notes: [
      `One cycle = acquire + release of an uncontended lock (${TTL_MS / 1000} s lease). Sequential: one ioredis connection, one cycle after another; ` +
        `${CLIENTS} clients: ${CLIENTS} connections in this one Node process, each looping on its own key. ${rounds} rounds per mode, each ${SLICES} slices of ${roundMs / SLICES} ms per contestant, interleaved with the order rotating, after one untimed round. ` +
        `racelab's lock is SET key token NX PX (1 round trip) + EVALSHA compare-and-delete (1 round trip), i.e. ${seqMedian > 0 ? (1e6 / seqMedian).toFixed(0) : '?'} µs a cycle sequentially. ` +
        `redis-semaphore Mutex: the same two commands (its auto-refresh timer off); redlock 4 and @sesamecare-oss/redlock: EVALSHA scripts for both steps, retries off, one Redis.`,
    ],
  };
}

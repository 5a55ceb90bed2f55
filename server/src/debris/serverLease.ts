// A serving racelab process holds a lease in the Redis every server of a room shares:
// racelab:lease:<host>:<pid>:<start ticks>, its value the server's name, rewritten every
// RENEW_EVERY_MS with a TTL of LEASE_TTL_MS. The runs it registers name their lease
// (runRegistry.ts), so a server on another machine, which cannot ask the kernel whether that
// process still runs, knows its owner is dead once the lease has expired. The set
// racelab:leases names every lease taken; each renewal also looks at the others: one named
// there whose key is gone is a server that died (or stopped), and `onGone` sweeps what it left
// at once instead of at the next minute's sweep. A set, not a SCAN of the keyspace, which holds
// every run's keys.
import type { Redis } from 'ioredis';
import { isSameProcess } from '../services/pids.js';
import { leaseRegistered, THIS_PROCESS } from './runRegistry.js';

export const LEASE_PREFIX = 'racelab:lease:';
/** The set of every lease taken and not yet seen gone. */
export const LEASES_KEY = 'racelab:leases';
/** How long a lease lives without a renewal, in ms: a server dead this long is dead to the others. */
export const LEASE_TTL_MS = 8000;
/** How often a live server renews its lease and looks at the others', in ms. */
export const RENEW_EVERY_MS = 2000;

/** This process's lease key. */
export const MY_LEASE = `${LEASE_PREFIX}${THIS_PROCESS.host}:${THIS_PROCESS.pid}:${THIS_PROCESS.ticks ?? 'none'}`;

// Several playgrounds of one process (tests) hold the one lease of the process together.
let holders = 0;
let myName: string | null = null;

export interface LeaseOptions {
  /** The server's name (RACELAB_SERVER_NAME) that a page whose run was lost is told. */
  name?: string;
  /** Called when another server's lease expired (the server died), with its key. */
  onGone: (lease: string) => void;
}

export class ServerLease {
  private readonly timer: NodeJS.Timeout;
  private released = false;

  private constructor(
    private readonly redis: Redis,
    private readonly options: LeaseOptions,
  ) {
    this.timer = setInterval(() => void this.renew().catch(() => undefined), RENEW_EVERY_MS).unref();
  }

  /** Takes the lease (written once before this returns) and renews it until release(). */
  static async hold(redis: Redis, options: LeaseOptions): Promise<ServerLease> {
    holders++;
    myName = options.name ?? myName;
    const lease = new ServerLease(redis, options);
    leaseRegistered({ key: MY_LEASE, name: myName });
    try {
      await lease.renew();
    } catch (error) {
      await lease.release();
      throw error;
    }
    return lease;
  }

  /** Rewrites the lease, then looks for the leases that expired. */
  private async renew(): Promise<void> {
    if (this.released) return;
    await this.redis
      .multi()
      .set(MY_LEASE, myName ?? '', 'PX', LEASE_TTL_MS)
      .sadd(LEASES_KEY, MY_LEASE)
      .exec();
    const gone = await goneLeases(this.redis);
    // Only the server whose SREM took it sweeps for it: one sweep per death, not one per server.
    for (const key of gone) if ((await this.redis.srem(LEASES_KEY, key)) === 1) this.options.onGone(key);
  }

  /** Stops renewing; the last holder of the process deletes the lease (a stopping server is not a dead one, but its runs are settled). */
  release(): Promise<void> {
    if (this.released) return Promise.resolve();
    this.released = true;
    clearInterval(this.timer);
    holders--;
    if (holders > 0) return Promise.resolve();
    leaseRegistered(null);
    return this.redis.del(MY_LEASE).then(
      () => undefined,
      () => undefined,
    );
  }
}

/**
 * The leases named in the set whose key has expired (or was deleted by a server that stopped),
 * and those of this machine whose process no longer runs: the kernel says so at once, seconds
 * before the key expires.
 */
export async function goneLeases(redis: Redis): Promise<string[]> {
  const named = await redis.smembers(LEASES_KEY);
  if (named.length === 0) return [];
  const exists = await Promise.all(named.map((key) => redis.exists(key)));
  return named.filter((key, i) => exists[i] === 0 || deadHere(key));
}

/** Whether the lease is this machine's and its process no longer runs. */
function deadHere(key: string): boolean {
  const [host, pid, ticks] = key.slice(LEASE_PREFIX.length).split(':');
  if (host !== THIS_PROCESS.host || !pid) return false;
  return !isSameProcess(Number(pid), ticks === 'none' || ticks === undefined ? null : ticks);
}

/** Whether the lease `key` is held right now. */
export async function isHeld(redis: Redis, key: string): Promise<boolean> {
  return (await redis.exists(key)) === 1;
}

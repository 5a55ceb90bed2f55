// A run lost with its server: the server died (SIGKILL, a crash, its machine gone) while the
// run went, so the run decided nothing and its page, back through the proxy on another server,
// must be told so rather than "failed" or "not kept". Asked by a live server when a page
// resubscribes to a run it does not hold: the run registry names the run's owner, and the
// owner is dead when this machine's kernel says so, or (another machine's) its lease expired.
// Once the sweep has taken the run's row, the sweep's note racelab:lost:<run id> (the dead
// server's name, kept an hour) still says so.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { isSameProcess } from '../services/pids.js';
import { registeredRun, THIS_PROCESS, type RegisteredRun } from './runRegistry.js';
import { isHeld, LEASE_TTL_MS } from './serverLease.js';

export const LOST_PREFIX = 'racelab:lost:';
/** How long the sweep's note of a lost run is kept, in seconds: a page away longer is told the run is not kept. */
const LOST_NOTE_S = 3600;
/** How often a wait for another machine's lease to expire looks again, in ms. */
const LOOK_EVERY_MS = 250;

/** Notes that the run was lost with its owner (the sweep, before it removes the run). */
export async function recordLost(redis: Redis, run: RegisteredRun): Promise<void> {
  await redis.set(`${LOST_PREFIX}${run.runId}`, run.serverName ?? '', 'EX', LOST_NOTE_S);
}

/** Whether `runId` may name a registered run at all (ten hex digits): anything else is unknown without asking the stores. */
export function mayBeRegistered(runId: string): boolean {
  return /^[a-f0-9]{10}$/.test(runId);
}

/** What a live server knows of a run it does not hold. */
export type Whereabouts = { lost: true; server?: string } | { lost: false };

/**
 * Whether the run `runId` was lost with its server. Another machine's owner may have died a
 * moment ago with its lease still running: this waits up to the lease's life (`waitMs`) for
 * it to expire, so that a page back within seconds is told the truth, not "unknown".
 */
export async function whereabouts(redis: Redis, pool: pg.Pool, runId: string, waitMs = LEASE_TTL_MS + 1000): Promise<Whereabouts> {
  if (!mayBeRegistered(runId)) return { lost: false };
  const deadline = Date.now() + waitMs;
  for (;;) {
    const noted = await redis.get(`${LOST_PREFIX}${runId}`);
    if (noted !== null) return lostOn(noted);
    const run = await registeredRun(pool, runId);
    if (!run) {
      // Swept since the note was read: the sweep notes a lost run before it removes its row.
      const swept = await redis.get(`${LOST_PREFIX}${runId}`);
      return swept !== null ? lostOn(swept) : { lost: false };
    }
    const owner = await ownerState(redis, run);
    if (owner === 'dead') return lostOn(run.serverName);
    if (owner === 'alive' || Date.now() >= deadline) return { lost: false };
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}

function lostOn(server: string | null): Whereabouts {
  return server ? { lost: true, server } : { lost: true };
}

/** `dead`, `alive`, or `leased`: another machine's owner whose lease still runs (it may have died a moment ago). */
async function ownerState(redis: Redis, run: RegisteredRun): Promise<'dead' | 'alive' | 'leased'> {
  if (run.host === THIS_PROCESS.host) return isSameProcess(run.pid, run.ticks) ? 'alive' : 'dead';
  if (run.lease === null) return 'alive'; // no lease to judge by: not ours to call lost
  return (await isHeld(redis, run.lease)) ? 'leased' : 'dead';
}

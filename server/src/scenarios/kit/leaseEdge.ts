// Where a stalled holder wakes, and acts, against the end of its lease. The lease counts
// from its SET; worker-1's stall starts only once the server has recorded the grant, 10–15 ms
// later on a quiet machine and more on a busy one, and waking from it takes a few ms more.
// So a stall that ends just inside the lease would pass or fail by the scheduler's luck. The
// labs keep an edge: what ends LEASE_EDGE_MS or more before the lease does is inside it, and a
// stall that would end nearer is played on past the lease's end, by as much again, so the
// lease has surely lapsed. The expected verdicts and the choreography use the same rule.
import type { Params } from '@racelab/shared';
import { intParam, type WorkerContext } from '../types.js';

export const LEASE_EDGE_MS = 50;

/**
 * Least time a lock that renews itself must leave its renewal to land before the lease would
 * end, in ms. A timer on a busy machine fires late, now and then by more than 20 ms (a 100 ms
 * lease renewed at 80 %: 1 run in 10 lost its lease with a second run and a core kept busy
 * beside it); with less than this the verdict would be luck.
 */
export const RENEWAL_EDGE_MS = LEASE_EDGE_MS;

/**
 * Why a lease of `leaseMs` is refused for `lock`, which renews after `renewsAt` of its lease:
 * each renewal would have less than RENEWAL_EDGE_MS to land. null: it has that, or the lock
 * does not say when it renews.
 */
export function thinRenewal(lock: { name: string; renewsAt?: number }, leaseMs: number): string | null {
  const { renewsAt } = lock;
  if (renewsAt === undefined) return null;
  // What a lease of `ms` leaves its renewal: the renewal is due at a whole ms, as the timer takes it.
  const leftMs = (ms: number): number => ms - Math.round(ms * renewsAt);
  if (leftMs(leaseMs) >= RENEWAL_EDGE_MS) return null;
  let leastMs = leaseMs;
  while (leftMs(leastMs) < RENEWAL_EDGE_MS) leastMs++;
  return (
    `${lock.name} renews its lock after ${Math.round(renewsAt * 100)} % of the lease: a ${leaseMs} ms lease leaves each renewal ` +
    `${leftMs(leaseMs)} ms to land, and a busy machine's timer is late by more than that now and then, so the verdict would be luck. ` +
    `Use a lease of ${leastMs} ms or more.`
  );
}

/** A stall of worker-1 right after its grant, against its lease, all in ms. */
export interface StallAgainstLease {
  /** What is left of the lease when the stall starts. */
  leaseMs: number;
  stallMs: number;
  /** Its work after the stall, before it acts. */
  workMs: number;
  /** Does the lease renew itself once its holder runs again (a watchdog)? Then only the stall must end inside it. */
  renews: boolean;
  /** How far inside the lease it must end: LEASE_EDGE_MS, or more where a lab's grant takes longer to reach the stall. */
  edgeMs: number;
}

/** The stall of `stallParam` with the lease and the work (none where the lab has none) of a lab's parameters. */
export function stallOf(params: Params, stallParam: string, renews: boolean): StallAgainstLease {
  const workMs = params['workMs'] === undefined ? 0 : intParam(params, 'workMs');
  return { leaseMs: intParam(params, 'leaseMs'), stallMs: intParam(params, stallParam), workMs, renews, edgeMs: LEASE_EDGE_MS };
}

/** How long after the grant the lease must still be live: to the stall's end when it renews then, else to the act. */
function neededMs({ stallMs, workMs, renews }: StallAgainstLease): number {
  return renews ? stallMs : stallMs + workMs;
}

/** Does the lease still hold when it is needed, by its edge at least? */
export function endsInsideLease(stall: StallAgainstLease): boolean {
  return neededMs(stall) <= stall.leaseMs - stall.edgeMs;
}

/**
 * The stall as played: as asked, unless what it needs of the lease would end within the edge
 * of the lease's end; then stretched to end (with its work, unless the lease renews) the edge
 * past it, and the worker says so on the timeline.
 */
export function stallAsPlayed(ctx: Pick<WorkerContext, 'emit'>, stall: StallAgainstLease, words: string): number {
  const needed = neededMs(stall);
  if (endsInsideLease(stall) || needed >= stall.leaseMs) return stall.stallMs;
  const playedMs = stall.stallMs + (stall.leaseMs - needed) + stall.edgeMs;
  const ends = stall.renews ? `the ${words}` : `the ${words} and work`;
  ctx.emit({
    type: 'note',
    text: `choreography: ${ends} would end ${stall.leaseMs - needed} ms before the lease does (less than ${stall.edgeMs} ms): the ${words} is played for ${playedMs} ms, past the lease's end`,
  });
  return playedMs;
}

/** Stops this worker's process for real (SIGSTOP) for the pause as played (stallAsPlayed), if any. */
export async function pauseAsPlayed(ctx: Pick<WorkerContext, 'emit' | 'stall'>, pause: StallAgainstLease): Promise<void> {
  const playedMs = stallAsPlayed(ctx, pause, 'pause');
  if (playedMs > 0) await ctx.stall(playedMs);
}

// How much of worker-1's lock is left for its pause and work: its lock lives on the deciding
// node (reach.ts) from the moment that node took it, and worker-2 takes a majority once it is
// gone there. In a split, what comes after that node's SET is gone before the pause starts:
// the asking of the two nodes worker-1 cannot reach (each out of reach for NODE_TIMEOUT_MS),
// and node-3's clock jump ends its keys early. With every node in reach, the deciding node is
// asked last and keeps the whole lease. The expected verdicts and the pause as played
// (kit/leaseEdge.ts, with this lab's wider edge) both count from here.
import type { Params } from '@racelab/shared';
import { endsInsideLease, RENEWAL_EDGE_MS, type StallAgainstLease } from '../kit/leaseEdge.js';
import { choiceParam, intParam } from '../types.js';
import { decidingNode, reachableNodes, type Reach } from './reach.js';
import { NODE_COUNT } from './keys.js';

/** How long one node may take to answer, in ms: small beside the lock's life, so a dead node costs little. */
export const NODE_TIMEOUT_MS = 100;

/**
 * The lease edge of this lab (kit/leaseEdge.ts), wider than one Redis's: from worker-1's
 * request to its pause, the asking of the nodes it reaches and the server's sampling of five
 * nodes for the grant took 30-70 ms on a busy machine.
 */
export const NODES_EDGE_MS = 100;

/**
 * A lock that renews itself does so first this share of its lease after its grant, where it
 * does not say (LockModule.renewsAt; redis-semaphore's RedlockMutex says 0.8). Its timer starts
 * when the grant resolves, after the asking; node-3's key ends at the lease less the jump, from
 * its SET.
 */
const FIRST_RENEWAL_SHARE = 0.8;

/** How a client asks the nodes for the lock. */
export interface LockAsking {
  /**
   * One node after another (the hand-written Redlock); all at once, waiting for every answer;
   * or all at once until a majority has answered (LockModule.answersAtMajority).
   */
  asks: 'in-turn' | 'all-at-once' | 'until-majority';
  /** Does the lock renew itself while its holder runs? Then only the pause must end inside it. */
  renews: boolean;
  /** A lock that renews: after what share of its lease it first does (absent: FIRST_RENEWAL_SHARE). */
  renewsAt?: number;
}

/**
 * The time worker-1's asking takes after the deciding node took its lock: a timeout for each
 * node out of its reach asked later, or one for them all when they are asked at once. worker-1
 * reaches a majority with the deciding node in it, so a client that settles at a majority waits
 * for none.
 */
function askingAfterDecidingMs(reach: Reach, { asks }: LockAsking): number {
  const reached = new Set(reachableNodes(reach, 0));
  const silentLater = Array.from({ length: NODE_COUNT }, (_, i) => i).filter((i) => i > decidingNode(reach) && !reached.has(i)).length;
  if (silentLater === 0 || asks === 'until-majority') return 0;
  return asks === 'in-turn' ? silentLater * NODE_TIMEOUT_MS : NODE_TIMEOUT_MS;
}

/** worker-1's pause and work against what is left of its lock on the deciding node when the pause starts. */
export function pauseAgainstLock(params: Params, asking: LockAsking): StallAgainstLease & { askingMs: number; jumpMs: number } {
  const reach = choiceParam(params, 'reach') as Reach;
  const askingMs = askingAfterDecidingMs(reach, asking);
  const jumpMs = reach === 'split' ? intParam(params, 'clockJumpMs') : 0;
  const [leaseMs, pauseMs, workMs] = ['leaseMs', 'pauseMs', 'workMs'].map((name) => intParam(params, name)) as [number, number, number];
  const leftMs = leaseMs - askingMs - jumpMs;
  // A renewing lock renews on its own timer, from the grant: node-3's key may be gone before.
  // Then it is a lock that does not renew, and worker-1's work must fit in what is left too.
  // Within RENEWAL_EDGE_MS of the key's end either way the run is refused (renewalAtTheEdge).
  const renews = asking.renews && renewalAheadMs(leaseMs, leftMs, asking) >= RENEWAL_EDGE_MS;
  return { leaseMs: leftMs, stallMs: pauseMs, workMs, renews, edgeMs: NODES_EDGE_MS, askingMs, jumpMs };
}

/** How long before worker-1's lock ends on node-3 (`leftMs` after the grant) its first renewal is due, in ms; negative: after. */
const renewalAheadMs = (leaseMs: number, leftMs: number, asking: LockAsking): number => leftMs - renewalShare(asking) * leaseMs;

const renewalShare = (asking: LockAsking): number => asking.renewsAt ?? FIRST_RENEWAL_SHARE;

/**
 * Why a renewing lock is refused these parameters: its first renewal would be due within
 * RENEWAL_EDGE_MS of the end of worker-1's lock on node-3, either way, where the verdict turns
 * on it (the pause ends inside the lock, the pause and work do not). Whether a timer's renewal
 * lands just before or just after would be luck: a lease of 590 ms in a split, renewed 18 ms
 * before the end, passed 6 times in 6. null: the renewal is clear of the edge, or decides nothing.
 */
export function renewalAtTheEdge(params: Params, asking: LockAsking, name: string): string | null {
  if (!asking.renews) return null;
  const left = pauseAgainstLock(params, asking);
  const leaseMs = intParam(params, 'leaseMs');
  const aheadMs = Math.round(renewalAheadMs(leaseMs, left.leaseMs, asking));
  if (Math.abs(aheadMs) >= RENEWAL_EDGE_MS) return null;
  if (endsInsideLease({ ...left, renews: true }) === endsInsideLease({ ...left, renews: false })) return null;
  // Whole ms, up: without the float error of a share (1 − 0.8 is not quite 0.2).
  const ceilMs = (ms: number): number => Math.ceil(ms - 1e-6);
  const lost = left.askingMs + left.jumpMs;
  const rest = 1 - renewalShare(asking);
  const leastLeaseMs = ceilMs((RENEWAL_EDGE_MS + lost) / rest);
  const leastJumpMs = Math.max(0, ceilMs(rest * leaseMs - left.askingMs + RENEWAL_EDGE_MS));
  const when = aheadMs >= 0 ? `${aheadMs} ms before` : `${-aheadMs} ms after`;
  // Only a split is ever refused (with every node in reach nothing comes off the lock, and 20 % of
  // a lease of 500 ms or more is 100 ms ahead), and there a clock jump counts: it clears the edge too.
  return (
    `${name} would renew its lock ${when} it ends on node-3 (${left.leaseMs} ms after the grant), less than ${RENEWAL_EDGE_MS} ms ` +
    `either way, and the verdict turns on it: whether the renewal lands in time would be luck. Use a lease of ${leastLeaseMs} ms or more, ` +
    `or a clock jump of ${leastJumpMs} ms or more.`
  );
}

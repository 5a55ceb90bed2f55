// Leases as the workers lived them: from lease-acquired until the worker let go, and the
// part of that belief that Redis no longer backed (a "zombie" window: the lease expired,
// or another worker's DEL removed the key, while this worker still thought it held it).
// A lease lives as long as its TTL said when taken, or longer where the server saw Redis
// (the run's key, or enough of a lab's own nodes) hold the worker's own token with more
// time left: a lock renewed by a library's timer, which tells the worker nothing, is
// backed until the last renewal the server saw runs out.
import { foldOnLog } from './memo.js';
import { runSummary } from './runSummary.js';

/** Why the lease stopped protecting the worker. */
export type LeaseEnd =
  | { kind: 'released' }
  | { kind: 'expired' }
  | { kind: 'deleted'; by: string }
  /** The worker's process is gone and the key never expires: held until the run's end. */
  | { kind: 'never-released' }
  /** Still held (the run is in progress). */
  | { kind: 'open' };

export interface Lease {
  id: string;
  workerId: string;
  key: string;
  acquiredMs: number;
  /** Lease length in force (null: the key never expires). */
  ttlMs: number | null;
  token?: string;
  fence?: number;
  /** When Redis would expire the key, if ever. */
  expiresAtMs: number | null;
  releasedMs: number | null;
  /** seq of the lease-released event, if any. */
  releasedSeq: number | null;
  /** What Redis answered to the release: how many keys it deleted. */
  deleted: number | null;
  /** The worker whose lock this worker's release deleted (a blind DEL), if any. */
  deletedLockOf: string | null;
  /** When the worker's process stopped (killed or exited) while holding the lease. */
  goneMs: number | null;
  /** End of the protected part; null when it is still open (drawn to the live edge). */
  heldEndMs: number | null;
  end: LeaseEnd;
  /**
   * The worker still believed it held the lease, but Redis did not back it. `pending`: the
   * run is in progress and the lease expires later than the latest event; the window will
   * open at expiry if no release comes first (drawn to the live edge, not announced yet).
   */
  zombie: { startMs: number; endMs: number | null; pending?: boolean } | null;
  /** The interval the worker believed it held the lease (for counting holders). */
  belief: { startMs: number; endMs: number | null };
}

interface Draft {
  lease: Lease;
  lostMs: number | null;
  lostBy: string | null;
}

function expiredBy(d: Draft, atMs: number): boolean {
  return d.lease.expiresAtMs !== null && d.lease.expiresAtMs <= atMs;
}

function finish(d: Draft, runEndMs: number | null, lastMs: number): Lease {
  const l = d.lease;
  // While the run is in progress, an expiry later than the latest event has not happened yet.
  const future = runEndMs === null && l.expiresAtMs !== null && l.expiresAtMs > lastMs;
  const candidates: { at: number; end: LeaseEnd }[] = [];
  if (l.releasedMs !== null) candidates.push({ at: l.releasedMs, end: { kind: 'released' } });
  if (l.expiresAtMs !== null && !future) candidates.push({ at: l.expiresAtMs, end: { kind: 'expired' } });
  if (d.lostMs !== null && d.lostBy !== null) candidates.push({ at: d.lostMs, end: { kind: 'deleted', by: d.lostBy } });
  candidates.sort((a, b) => a.at - b.at);
  const first = candidates[0];
  // The process died with no expiry on the key: the lock outlives it, to the run's end.
  const forever = !first && l.goneMs !== null && l.expiresAtMs === null;
  let heldEndMs: number | null;
  let end: LeaseEnd;
  if (first && (runEndMs === null || first.at <= runEndMs)) {
    heldEndMs = first.at;
    end = first.end;
  } else if (forever) {
    heldEndMs = runEndMs;
    end = { kind: 'never-released' };
  } else {
    heldEndMs = runEndMs;
    end = { kind: 'open' };
  }
  const beliefEnd = l.releasedMs ?? l.goneMs ?? runEndMs;
  let zombie: Lease['zombie'] = null;
  if (end.kind === 'expired' || end.kind === 'deleted') {
    const start = heldEndMs as number;
    if (beliefEnd === null) zombie = { startMs: start, endMs: null };
    else if (beliefEnd > start) zombie = { startMs: start, endMs: beliefEnd };
  } else if (end.kind === 'open' && future && l.goneMs === null) {
    zombie = { startMs: l.expiresAtMs as number, endMs: null, pending: true };
  }
  return { ...l, heldEndMs, end, zombie, belief: { startMs: l.acquiredMs, endMs: beliefEnd } };
}

const slot = (w: string, key: string) => `${w}\u0000${key}`;

/** When Redis lets the key go: counted from when the command was sent (a late reply changes nothing), else from the event. */
const expiryOf = (e: { atMs: number; fromMs?: number | undefined }, ttlMs: number): number => (e.fromMs ?? e.atMs) + ttlMs;

/** Every lease of the run, in acquisition order. */
export const deriveLeases = foldOnLog({
  init: () => ({
    drafts: [] as Draft[],
    open: new Map<string, Draft>() /* by worker + key */,
    /** How many leases carried each token so far: only a token one lease carries says whose key Redis holds. */
    tokens: new Map<string, number>(),
  }),
  step({ drafts, open, tokens }, e) {
    // What the server saw the store hold for a token: the run's Redis key, or a lock on a
    // lab's own nodes held by as many of them as it needs.
    if (e.type === 'key-observed' || e.type === 'lock-held') {
      const seen = e.type === 'key-observed' ? e.value : e.token;
      if (seen === null || e.pttlMs < 0 || tokens.get(seen) !== 1) return;
      for (const d of open.values()) {
        const l = d.lease;
        if (l.token === seen && l.expiresAtMs !== null) l.expiresAtMs = Math.max(l.expiresAtMs, e.atMs + e.pttlMs);
      }
      return;
    }
    const w = e.workerId;
    if (w === null) return;
    switch (e.type) {
      case 'lease-acquired': {
        const lease: Lease = {
          id: `lease-${e.seq}`,
          workerId: w,
          key: e.key,
          acquiredMs: e.atMs,
          ttlMs: e.ttlMs,
          ...(e.token !== undefined ? { token: e.token } : {}),
          ...(e.fence !== undefined ? { fence: e.fence } : {}),
          expiresAtMs: e.ttlMs === null ? null : expiryOf(e, e.ttlMs),
          releasedMs: null,
          releasedSeq: null,
          deleted: null,
          deletedLockOf: null,
          goneMs: null,
          heldEndMs: null,
          end: { kind: 'open' },
          zombie: null,
          belief: { startMs: e.atMs, endMs: null },
        };
        if (e.token !== undefined) tokens.set(e.token, (tokens.get(e.token) ?? 0) + 1);
        const prev = open.get(slot(w, e.key));
        if (prev) prev.lease.releasedMs = e.atMs; // re-acquired without a release: the old one ends here
        const d: Draft = { lease, lostMs: null, lostBy: null };
        drafts.push(d);
        open.set(slot(w, e.key), d);
        break;
      }
      case 'lease-expiry-set': {
        const d = open.get(slot(w, e.key));
        if (d) {
          d.lease.ttlMs = e.ttlMs;
          d.lease.expiresAtMs = expiryOf(e, e.ttlMs);
        }
        break;
      }
      case 'lease-released': {
        const d = open.get(slot(w, e.key));
        if (!d) break;
        d.lease.releasedMs = e.atMs;
        d.lease.releasedSeq = e.seq;
        d.lease.deleted = e.deleted;
        open.delete(slot(w, e.key));
        const ownGone = expiredBy(d, e.atMs) || d.lostMs !== null;
        if (e.deleted > 0 && ownGone) {
          // A blind DEL after our lease was gone: Redis deleted whoever held the key now.
          const victims = [...open.values()]
            .filter((o) => o.lease.key === e.key && o.lostMs === null && !expiredBy(o, e.atMs))
            .sort((a, b) => b.lease.acquiredMs - a.lease.acquiredMs);
          const victim = victims[0];
          if (victim) {
            victim.lostMs = e.atMs;
            victim.lostBy = w;
            d.lease.deletedLockOf = victim.lease.workerId;
          }
        }
        break;
      }
      case 'process-killed':
      case 'worker-exited': {
        for (const [k, d] of open) {
          if (d.lease.workerId !== w) continue;
          d.lease.goneMs ??= e.atMs;
          open.delete(k);
        }
        break;
      }
      default:
        break;
    }
  },
  finish({ drafts }, events) {
    const { endMs: runEndMs, lastMs } = runSummary(events);
    return drafts.map((d) => finish(d, runEndMs, lastMs));
  },
});

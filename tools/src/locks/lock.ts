// What a held lock is: the key, the holder's own token (the only proof of ownership a
// release or an extend may trust), and the lease it was given.

export interface Lock {
  /** The Redis key that is the lock. */
  key: string;
  /** Unique to this acquisition: compare-and-delete and compare-and-extend check it. */
  token: string;
  /** Lease length in ms that Redis was asked for (PX). */
  ttlMs: number;
}

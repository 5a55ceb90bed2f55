// A lease's life as the timeline tells it: requested, granted (or not), held while the job
// runs, and released only if it is still the holder's (release-if-mine). How the lease is
// taken, and what is done under it, is the variant's own.
import type { WorkerContext } from '../types.js';

/** A lease as it was granted: how long it lives from when its command was sent, and its fence number if it has one. */
export interface Grant {
  ttlMs: number;
  /** When the command that granted it was sent (run clock): the lease counts from there, not from its reply. */
  fromMs: number;
  fence?: number;
}

export interface LeaseHolder extends Pick<WorkerContext, 'emit'> {
  lockKey: string;
  token: string;
  /** Waits until the server has the grant on record. */
  enter(): Promise<unknown>;
  /** Deletes the lease if it still holds this worker's token; returns the keys deleted. */
  release(): Promise<number>;
}

/**
 * Takes the lease with `take` (handed the job; null: not granted, and `take` has said why),
 * then runs `use` under it and releases it if it is still this worker's. `use` is handed
 * the grant and what the job's `enter` gave back.
 */
export async function holdLease<Job extends LeaseHolder, G extends Grant>(
  job: Job,
  take: (job: Job) => Promise<G | null>,
  use: (grant: G, entered: Awaited<ReturnType<Job['enter']>>) => Promise<void>,
): Promise<void> {
  job.emit({ type: 'lease-requested', key: job.lockKey });
  const grant = await take(job);
  if (!grant) return;
  const { ttlMs, fromMs, fence } = grant;
  job.emit({ type: 'lease-acquired', key: job.lockKey, ttlMs, fromMs, token: job.token, ...(fence === undefined ? {} : { fence }) });
  const entered = (await job.enter()) as Awaited<ReturnType<Job['enter']>>;
  try {
    await use(grant, entered);
  } finally {
    job.emit({ type: 'lease-released', key: job.lockKey, deleted: await job.release() }); // 0 when it had passed on
  }
}

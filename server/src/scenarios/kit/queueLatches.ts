// The latches of a job queue's two workers (stalled-job's bullmq, expired-job's pg-boss):
// worker-1 takes the job first and is stopped in it; worker-2 waits until it has, and each
// says when its handler is done.
export const FIRST = 'worker-1';
export const SECOND = 'worker-2';
/** Signalled once worker-1 holds the job. */
export const TAKEN = 'job-taken';
/** Signalled by `worker` when its handler has returned. */
export const handled = (worker: string): string => `handled:${worker}`;

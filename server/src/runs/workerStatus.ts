// A worker process's life in its run as one status, and the moves between statuses; any
// other move is a bug and throws. A worker is working (on its plan), paused (stopped by the
// page), leaving (it reported its end, or the run killed it: its exit is expected; the page
// may still have it paused), then exited (gone when the run did not expect it: a crash,
// unless the 'finished' it sent was still in the pipe) or left (gone as expected).
export type WorkerStatus = 'working' | 'paused' | 'leaving' | 'leaving-paused' | 'exited' | 'left';

/** What happens to a worker: the page pauses or resumes it, its exit becomes expected, its process exits. */
export type WorkerMove = 'pause' | 'resume' | 'leave' | 'exit';

/** Where each move takes a worker from each status; a move missing here is not one of its life. */
const NEXT: Readonly<Record<WorkerStatus, Partial<Record<WorkerMove, WorkerStatus>>>> = {
  working: { pause: 'paused', leave: 'leaving', exit: 'exited' },
  paused: { resume: 'working', leave: 'leaving-paused', exit: 'exited' },
  leaving: { pause: 'leaving-paused', leave: 'leaving', exit: 'left' },
  'leaving-paused': { resume: 'leaving', leave: 'leaving-paused', exit: 'left' },
  // A checkpoint's kill or a 'finished' that was still in the pipe when the process exited.
  exited: { leave: 'left' },
  left: { leave: 'left' },
};

/** The status after `move` from `from`; throws when a worker's life has no such move. */
export function moveWorker(from: WorkerStatus, move: WorkerMove): WorkerStatus {
  const to = NEXT[from][move];
  if (!to) throw new Error(`a worker cannot ${move} when ${from}`);
  return to;
}

/** Is the worker's process gone? */
export function hasExited(status: WorkerStatus): boolean {
  return status === 'exited' || status === 'left';
}

/** Is the worker stopped by the page? */
export function isPaused(status: WorkerStatus): boolean {
  return status === 'paused' || status === 'leaving-paused';
}

/** Does the run expect the worker's exit (it reported its end, or the run killed it)? */
export function exitExpected(status: WorkerStatus): boolean {
  return status === 'leaving' || status === 'leaving-paused' || status === 'left';
}

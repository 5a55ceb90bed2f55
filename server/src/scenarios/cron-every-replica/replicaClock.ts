// A replica's wall clock where libfaketime is not installed: the process's own Date is moved
// back by the replica's skew, so croner, which reads `new Date()` for every decision, keeps
// time as it would on a badly synced host. The worker process is the run's alone and is
// killed when the run ends; the clock is put back anyway once the schedule has run.

/** Moves this process's Date `behindMs` back; returns what puts it back. */
export function moveWallClock(behindMs: number): () => void {
  const HostDate = Date;
  if (behindMs === 0) return () => undefined;
  class ReplicaDate extends HostDate {
    constructor(...args: unknown[]) {
      // `new Date()` is now by this replica's clock; a Date of a given time is that time.
      super(...((args.length === 0 ? [HostDate.now() - behindMs] : args) as [number]));
    }
    static override now(): number {
      return HostDate.now() - behindMs;
    }
  }
  globalThis.Date = ReplicaDate as DateConstructor;
  return () => {
    globalThis.Date = HostDate;
  };
}

// A run's life cycle as one status and the moves between statuses; any other move is a
// bug and throws. A run is prepared (validated, not started), starting (its stores, its
// setup, its worker processes), running (its workers at work), ending (observers stopped,
// the verdict measured from the stores), ended (the last event is in the log: run-finished
// or run-failed) and settled (cleaned up: workers gone, keys and schema dropped).
export type RunStatus = 'prepared' | 'starting' | 'running' | 'ending' | 'ended' | 'settled';

/** Where each status may go next. A cancel or a failure goes straight to ended from starting, running or ending. */
const NEXT: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  prepared: ['starting'],
  starting: ['running', 'ended'],
  running: ['ending', 'ended'],
  ending: ['ended'],
  ended: ['settled'],
  settled: [],
};

/** Is `from → to` a move of the life cycle? */
export function canMove(from: RunStatus, to: RunStatus): boolean {
  return NEXT[from].includes(to);
}

/** The status after moving from `from` to `to`; throws when the life cycle has no such move. */
export function transition(from: RunStatus, to: RunStatus): RunStatus {
  if (!canMove(from, to)) throw new Error(`a run cannot go from ${from} to ${to}`);
  return to;
}

/** Has the run's log ended (ended or settled)? Nothing is appended after the end, and cancelling it does nothing. */
export function isOver(status: RunStatus): boolean {
  return status === 'ended' || status === 'settled';
}

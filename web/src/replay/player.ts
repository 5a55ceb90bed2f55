// Replays a recorded log as if it were live: each event reaches the store when the replay
// clock (page time × rate since the start) passes its atMs, so the live edge, the code
// steps and the verdict play out as they did, in slow motion when the rate is below 1.
import type { RunEvent } from '@racelab/shared';
import type { AppStore } from '../store/index.js';

/** How many events of a time-sorted log are due at run time `runMs`. */
export function dueCount(sorted: readonly RunEvent[], runMs: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.atMs <= runMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface PlayerDeps {
  now?: () => number;
  requestFrame?: (fn: () => void) => unknown;
  cancelFrame?: (id: unknown) => void;
}

export interface Player {
  runId: string;
  stop(): void;
}

let current: Player | null = null;

/** Starts replaying a run on the page (stopping any other replay); null when it cannot. */
export function playRun(store: AppStore, sourceRunId: string, rate: number, deps: PlayerDeps = {}): Player | null {
  const now = deps.now ?? (() => performance.now());
  const requestFrame = deps.requestFrame ?? ((fn) => requestAnimationFrame(fn));
  const cancelFrame = deps.cancelFrame ?? ((id) => cancelAnimationFrame(id as number));
  const source = store.getState().runs[sourceRunId];
  if (!source) return null;
  current?.stop();
  const sorted = [...source.events].sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
  const startedAt = now();
  const runId = store.getState().beginReplay(sourceRunId, rate, startedAt);
  if (!runId) return null;
  let sent = 0;
  let frame: unknown = null;
  let stopped = false;
  const tick = () => {
    frame = null;
    if (stopped) return;
    const due = dueCount(sorted, (now() - startedAt) * rate);
    if (due > sent) {
      store.getState().appendEvents(runId, sorted.slice(sent, due), Number.NaN);
      sent = due;
    }
    // A replay taken off the screen stops by itself.
    if (sent < sorted.length && store.getState().shown.includes(runId)) frame = requestFrame(tick);
  };
  const player: Player = {
    runId,
    stop() {
      stopped = true;
      if (frame !== null) cancelFrame(frame);
      if (current === player) current = null;
    },
  };
  current = player;
  tick();
  return player;
}

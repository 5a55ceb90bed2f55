// The replay clock: plays the runs on screen again as they happened by moving the cursor
// over their logs (page time × rate since the start), so the live edge, the code steps and
// the verdict play out as they did, in slow motion when the rate is below 1. It copies no
// event: the logs stay as they are, only the cursor moves.
import { logEndMs, type Cursor } from '../model/cursor.js';
import type { AppStore } from '../store/index.js';

export interface PlayerDeps {
  now?: () => number;
  requestFrame?: (fn: () => void) => unknown;
  cancelFrame?: (id: unknown) => void;
}

export interface Player {
  stop(): void;
}

let current: Player | null = null;

/**
 * Replays the runs on screen from `fromMs` (stopping any other replay); null when none is
 * shown. It stops by itself at the end, or as soon as anything else moves the cursor (a
 * step, Esc, other runs coming on screen).
 */
export function replayShown(store: AppStore, rate: number, fromMs = 0, deps: PlayerDeps = {}): Player | null {
  const now = deps.now ?? (() => performance.now());
  const requestFrame = deps.requestFrame ?? ((fn) => requestAnimationFrame(fn));
  const cancelFrame = deps.cancelFrame ?? ((id) => cancelAnimationFrame(id as number));
  const s = store.getState();
  const logs = s.shown.map((id) => s.runs[id]?.events).filter((e) => e !== undefined);
  if (logs.length === 0) return null;
  current?.stop();
  const endMs = Math.max(...logs.map(logEndMs));
  const startedAt = now();
  // From the end (or past it) a replay starts over.
  const from = fromMs < endMs ? Math.max(0, fromMs) : 0;
  let written: Extract<Cursor, { mode: 'replay' }> = { mode: 'replay', atMs: from, rate };
  let frame: unknown = null;
  let stopped = false;
  const player: Player = {
    stop() {
      stopped = true;
      if (frame !== null) cancelFrame(frame);
      frame = null;
      if (current === player) current = null;
    },
  };
  const tick = () => {
    frame = null;
    if (stopped) return;
    if (store.getState().cursor !== written) return player.stop(); // someone else moved it
    const atMs = Math.min(endMs, from + (now() - startedAt) * rate);
    if (atMs !== written.atMs) {
      written = { mode: 'replay', atMs, rate };
      store.getState().setCursor(written);
    }
    if (atMs < endMs) frame = requestFrame(tick);
    else player.stop();
  };
  current = player;
  store.getState().setCursor(written);
  tick();
  return player;
}

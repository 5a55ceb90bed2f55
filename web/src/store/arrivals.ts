// A live run's events from the moment they arrive until the timeline has drawn them from the
// run's log: the one owner of events that arrived and are not drawn yet. The socket hands each
// run event here as it comes (../socket/client.ts only moves bytes). Here they go into the
// run's log once per animation frame, and while a run streams faster than anyone can follow
// (thousands of events a second) at most every CALM_MS; meanwhile the timeline draws them each
// frame as ticks in their lanes (ArrivalTicks), without React, until the frame that draws them
// from the log says so (drawnThrough). They are the log's next events, not a second log.
// Where the tick worker draws them instead (it takes them from the socket it holds for the
// page, ../ticks/tickWorker.ts), it is told here what the lanes drew and which runs to forget.
import type { RunEvent } from '@racelab/shared';
import { isMark } from '../ticks/drawTicks.js';
import { pageTicks, type TickSink } from '../ticks/pageTicks.js';
import { TickBoard, type Tick } from '../ticks/tickBoard.js';
import { useStore, type AppStore } from './index.js';

/**
 * Run events reach the store once per animation frame, in that frame before it is drawn:
 * one store update and one render per frame whatever the rate, and no event waits for a
 * later frame than the first that can show it. Where frames do not run (a page in the
 * background) a timer flushes instead, after this long.
 */
const BATCH_MAX_MS = 100;

/**
 * A run streams fast when its events arrive at this rate or more (per second, counted over
 * windows of FLOW_WINDOW_MS). No seed scenario comes near it; a stress run of thousands of
 * events a second does, and then rendering the page from its log every frame is most of what
 * the page's main thread does, and each event waits behind it.
 */
const FAST_EVENTS_PER_S = 400;
const FLOW_WINDOW_MS = 100;
/**
 * While a run streams fast, its events go into its log (and every render made from it: lanes,
 * clusters, verdict, legend) at most this often, in ms; each frame meanwhile draws the events
 * that arrived as ticks in their lanes, without a render, until the timeline has drawn them
 * from the log.
 */
export const CALM_MS = 100;

/** How fast a run's events have been arriving. */
interface Flow {
  windowStartMs: number;
  count: number;
  fast: boolean;
  /** When its events last went into its log. */
  loggedMs: number;
}

export interface ArrivalsDeps {
  store: AppStore;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
  /** Runs a function before the next frame is drawn; none: the timer alone batches. */
  requestFrame?: ((fn: () => void) => unknown) | null;
  cancelFrame?: (id: unknown) => void;
  /** Where the events are drawn off the main thread instead, asked at each change (the page's starts on first use). */
  ticks?: () => TickSink | null;
}

export interface Arrivals {
  /** A run's event, as it came from the server. */
  arrived(runId: string, event: RunEvent): void;
  /** Everything that arrived goes into the logs now: before a message that must not overtake it. */
  settle(): void;
  /** The connection dropped: what arrived goes into the logs, and a resubscribed run counts its flow again. */
  connectionLost(): void;
  /** A lane's events that arrived and are not drawn from its run's log yet, as ticks, oldest first. */
  lane(runId: string, workerId: string): Tick[];
  /** The timeline drew the run's log up to and including this seq. */
  drawnThrough(runId: string, seq: number): void;
  /** Called after every change to what `lane` returns; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** The events among these that will be marks in their worker's lane. */
const ticksOf = (events: readonly RunEvent[]): Tick[] =>
  events.flatMap((e) => (e.workerId !== null && isMark(e) ? [{ seq: e.seq, atMs: e.atMs, workerId: e.workerId }] : []));

const isEnd = (e: RunEvent) => e.type === 'run-finished' || e.type === 'run-failed';

export function createArrivals(deps: ArrivalsDeps): Arrivals {
  const now = deps.now ?? (() => performance.now());
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  const requestFrame =
    deps.requestFrame !== undefined
      ? deps.requestFrame
      : typeof requestAnimationFrame === 'function'
        ? (fn: () => void) => requestAnimationFrame(fn)
        : null;
  const cancelFrame = deps.cancelFrame ?? ((id) => cancelAnimationFrame(id as number));
  const ticks = deps.ticks ?? (() => null);
  const actions = () => deps.store.getState();
  const board = new TickBoard();
  const listeners = new Set<() => void>();
  const changed = (yes: boolean) => {
    if (yes) listeners.forEach((l) => l());
  };
  const flows = new Map<string, Flow>();
  const batch = new Map<string, { events: RunEvent[]; originMs: number }>();
  let batchTimer: unknown = null;
  let batchFrame: unknown = null;

  const schedule = () => {
    if (batchTimer !== null) return;
    batchTimer = setTimer(() => flush(), BATCH_MAX_MS);
    batchFrame = requestFrame?.(() => flush()) ?? null;
  };

  /** The run ended where no timeline draws it: nothing of it will be drawn from its log. */
  const forget = (runId: string) => {
    ticks()?.forget(runId);
    board.forget(runId);
    changed(true);
  };

  /**
   * `all`: everything now (before a message that must not overtake the events). Otherwise a
   * run's end waits for the next frame when events came with it: the frame that draws the
   * verdict, the story and the numbers is the heaviest of a run, and the run's last events
   * are drawn in the frame before it instead of waiting for it.
   */
  const flush = (all = false) => {
    if (batchTimer !== null) clearTimer(batchTimer);
    if (batchFrame !== null) cancelFrame(batchFrame);
    batchTimer = null;
    batchFrame = null;
    const due = [...batch];
    batch.clear();
    const at = now();
    for (const [runId, b] of due) {
      const end = all ? -1 : b.events.findIndex(isEnd);
      const flow = flows.get(runId);
      // A fast run's events wait for their log (up to CALM_MS), drawn meanwhile; never its end.
      if (!all && end < 0 && flow?.fast && at - flow.loggedMs < CALM_MS) {
        batch.set(runId, b);
        changed(board.add(runId, ticksOf(b.events)));
        continue;
      }
      if (flow) flow.loggedMs = at;
      const logged = end <= 0 ? b.events : b.events.slice(0, end);
      actions().appendEvents(runId, logged, b.originMs);
      // Drawn as ticks until the timeline draws them from the log; a run that ended off screen never will be.
      changed(board.add(runId, ticksOf(logged)));
      if (end === 0 && !actions().shown.includes(runId)) forget(runId);
      if (end > 0) batch.set(runId, { events: b.events.slice(end), originMs: b.originMs });
    }
    if (batch.size > 0) schedule();
  };

  /**
   * Counts an arrival in its run's flow: fast as soon as a window holds the events the rate
   * brings in one (so from a fast run's first few ms), slow again after a window below it.
   */
  const countArrival = (runId: string, at: number) => {
    let flow = flows.get(runId);
    if (!flow) flows.set(runId, (flow = { windowStartMs: at, count: 0, fast: false, loggedMs: at }));
    const windowMs = at - flow.windowStartMs;
    if (windowMs >= FLOW_WINDOW_MS) {
      flow.fast = (flow.count * 1000) / windowMs >= FAST_EVENTS_PER_S;
      flow.windowStartMs = at;
      flow.count = 0;
    }
    flow.count++;
    if (flow.count >= (FAST_EVENTS_PER_S * FLOW_WINDOW_MS) / 1000) flow.fast = true;
  };

  return {
    arrived(runId, event) {
      const at = now();
      const b = batch.get(runId) ?? { events: [], originMs: Number.POSITIVE_INFINITY };
      b.events.push(event);
      // Each arrival bounds the run's time zero on this page's clock: arrival - atMs.
      b.originMs = Math.min(b.originMs, at - event.atMs);
      // Its end goes into the log with what came before it: the run's flow is over.
      if (isEnd(event)) flows.delete(runId);
      else countArrival(runId, at);
      batch.set(runId, b);
      schedule();
    },
    settle: () => flush(true),
    connectionLost() {
      flush(true);
      flows.clear();
    },
    lane: (runId, workerId) => board.lane(runId, workerId),
    drawnThrough(runId, seq) {
      ticks()?.drawnThrough(runId, seq);
      changed(board.drawnThrough(runId, seq));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's arrivals: handed its socket's run events, drawn by its timeline (or its tick worker). */
export const arrivals = createArrivals({ store: useStore, ticks: pageTicks });

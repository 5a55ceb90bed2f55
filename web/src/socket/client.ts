// The page's WebSocket: connects to ws beside the page (/ws at a host's root), feeds every server message
// into the store, and reconnects with backoff when the connection drops.
import type { ClientMessage, RunEvent } from '@racelab/shared';
import { arrivals as pageArrivals, type Arrivals } from '../store/arrivals.js';
import type { AppStore } from '../store/index.js';
import { backoffDelay } from './backoff.js';
import { receive } from './messages.js';

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
 * that arrived as ticks in their lanes (the arrivals, ../store/arrivals.ts), without a render,
 * until the timeline has drawn them from the log.
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

export interface SocketDeps {
  url: string;
  store: AppStore;
  WebSocketImpl?: typeof WebSocket;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
  /** Runs a function before the next frame is drawn; none: the timer alone batches. */
  requestFrame?: ((fn: () => void) => unknown) | null;
  cancelFrame?: (id: unknown) => void;
  /** Where a live run's events are drawn until the timeline draws them from the log; default: the page's. */
  arrivals?: Arrivals;
}

/** The socket beside the page (`base`: its document.baseURI): /ws at a host's root, /racelab/ws behind a proxy's /racelab/. */
export function socketUrl(base: string): string {
  const url = new URL('ws', base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export function startSocket(deps: SocketDeps): { stop(): void } {
  const Impl = deps.WebSocketImpl ?? WebSocket;
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
  const actions = () => deps.store.getState();
  const arrivals = deps.arrivals ?? pageArrivals;
  const flows = new Map<string, Flow>();

  let socket: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let reconnectTimer: unknown = null;
  let batchTimer: unknown = null;
  let batchFrame: unknown = null;
  const batch = new Map<string, { events: RunEvent[]; originMs: number }>();

  const schedule = () => {
    if (batchTimer !== null) return;
    batchTimer = setTimer(() => flush(), BATCH_MAX_MS);
    batchFrame = requestFrame?.(() => flush()) ?? null;
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
      const end = all ? -1 : b.events.findIndex((e) => e.type === 'run-finished' || e.type === 'run-failed');
      const flow = flows.get(runId);
      // A fast run's events wait for their log (up to CALM_MS), drawn meanwhile; never its end.
      if (!all && end < 0 && flow?.fast && at - flow.loggedMs < CALM_MS) {
        batch.set(runId, b);
        arrivals.hold(runId, b.events);
        continue;
      }
      if (flow) flow.loggedMs = at;
      const logged = end <= 0 ? b.events : b.events.slice(0, end);
      actions().appendEvents(runId, logged, b.originMs);
      // Drawn as ticks until the timeline draws them from the log; a run that ended off screen never will be.
      arrivals.folded(runId, logged);
      if (end === 0 && !actions().shown.includes(runId)) arrivals.clear(runId);
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

  /** The keys of the runs this page started: sent again when it resubscribes after a drop. */
  const controlKeys = new Map<string, string>();
  const sink = {
    setCatalog: (c: Parameters<ReturnType<typeof actions>['setCatalog']>[0]) => {
      actions().setCatalog(c);
      // Connected means ready: the server's hello (its catalog) has come, so R runs at once.
      actions().setConnection('connected');
    },
    runAccepted: (requestId: string, runId: string, controlKey: string, workers: string[]) => {
      flush(true);
      controlKeys.set(runId, controlKey);
      actions().runAccepted(requestId, runId, workers);
    },
    runRejected: (requestId: string, error: string) => actions().runRejected(requestId, error),
    runUnknown: (runId: string) => actions().runUnknown(runId),
    runEvent: (runId: string, event: RunEvent) => {
      const at = now();
      const b = batch.get(runId) ?? { events: [], originMs: Number.POSITIVE_INFINITY };
      b.events.push(event);
      // Each arrival bounds the run's time zero on this page's clock: arrival - atMs.
      b.originMs = Math.min(b.originMs, at - event.atMs);
      // Its end goes into the log with what came before it: the run's flow is over.
      if (event.type === 'run-finished' || event.type === 'run-failed') flows.delete(runId);
      else countArrival(runId, at);
      batch.set(runId, b);
      schedule();
    },
    setServerError: (error: string | null) => actions().setServerError(error),
  };

  const send = (message: ClientMessage): boolean => {
    if (!socket || socket.readyState !== Impl.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  };

  const connect = () => {
    reconnectTimer = null;
    if (stopped) return;
    actions().setConnection(attempt === 0 ? 'connecting' : 'reconnecting');
    const ws = new Impl(deps.url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      actions().setServerError(null);
      actions().setTransport(send);
      // Runs followed before the drop: the server replays what this page missed, then streams live.
      for (const { runId, afterSeq } of actions().resumable()) {
        // With the run's key, this page may stall, kill and cancel its own runs again.
        const controlKey = controlKeys.get(runId);
        if (send({ type: 'subscribe', runId, afterSeq, ...(controlKey ? { controlKey } : {}) })) actions().runResumed(runId);
      }
    };
    ws.onmessage = (ev: MessageEvent) => {
      receive(ev.data, sink);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      flush(true);
      flows.clear(); // a resubscribed run starts its count again
      actions().setTransport(null);
      actions().connectionLost();
      if (stopped) return;
      actions().setConnection('reconnecting');
      reconnectTimer = setTimer(connect, backoffDelay(attempt++));
    };
    ws.onerror = () => ws.close();
  };

  connect();
  return {
    stop() {
      stopped = true;
      if (reconnectTimer !== null) clearTimer(reconnectTimer);
      if (batchTimer !== null) clearTimer(batchTimer);
      if (batchFrame !== null) cancelFrame(batchFrame);
      socket?.close();
    },
  };
}

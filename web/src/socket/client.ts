// The page's WebSocket: connects to ws beside the page (/ws at a host's root), hands every server message
// on (a run's events to the arrivals, ../store/arrivals.ts, which put them in its log and draw
// them until then; the rest to the store), and reconnects with backoff when the connection
// drops. It only moves messages: when events go into a log is the arrivals'.
import type { ClientMessage } from '@racelab/shared';
import { arrivals as pageArrivals, type Arrivals } from '../store/arrivals.js';
import type { AppStore } from '../store/index.js';
import { backoffDelay } from './backoff.js';
import { receive } from './messages.js';

export interface SocketDeps {
  url: string;
  store: AppStore;
  WebSocketImpl?: typeof WebSocket;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
  /** Where a run's events go as they arrive; default: the page's. */
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
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  const actions = () => deps.store.getState();
  const arrivals = deps.arrivals ?? pageArrivals;

  let socket: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let reconnectTimer: unknown = null;

  /** The keys of the runs this page started: sent again when it resubscribes after a drop. */
  const controlKeys = new Map<string, string>();
  const sink = {
    setCatalog: (c: Parameters<ReturnType<typeof actions>['setCatalog']>[0]) => {
      actions().setCatalog(c);
      // Connected means ready: the server's hello (its catalog) has come, so R runs at once.
      actions().setConnection('connected');
    },
    runAccepted: (requestId: string, runId: string, controlKey: string, workers: string[]) => {
      arrivals.settle();
      controlKeys.set(runId, controlKey);
      actions().runAccepted(requestId, runId, workers);
    },
    runRejected: (requestId: string, error: string) => actions().runRejected(requestId, error),
    runQueued: (requestId: string, position: number, estimateMs: number, queueKey: string) =>
      actions().runQueued(requestId, position, estimateMs, queueKey),
    runUnknown: (runId: string) => actions().runUnknown(runId),
    runLost: (runId: string, server?: string) => actions().runLostWithServer(runId, server),
    runEvent: arrivals.arrived,
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
      // Starts that waited in line: the server keeps their places a while for this page.
      for (const { requestId, queueKey } of actions().rejoinable()) send({ type: 'rejoin-queue', requestId, queueKey });
    };
    ws.onmessage = (ev: MessageEvent) => {
      receive(ev.data, sink);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      arrivals.connectionLost();
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
      socket?.close();
    },
  };
}

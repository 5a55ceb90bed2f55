// The page's side of the tick worker (tickWorker.ts), where the browser can hand a canvas to
// a worker (OffscreenCanvas): the page's socket, held by the worker (a WebSocket to the
// socket client, ../socket/client.ts), and the lanes whose ticks the worker draws. Elsewhere
// (an older browser, the unit tests' DOM) there is none: the socket is the page's own and
// ArrivalTicks draws on the main thread. A worker that fails (its script not served, an
// error in it) leaves the page the same way: the sockets it held close, the socket client
// reconnects with a socket of the page's own, and lanes mounted from then on draw on the
// main thread.
import type { FromTickWorker, ToTickWorker } from './protocol.js';

/** What the timeline tells the worker of a run's ticks. */
export interface TickSink {
  /** The lanes drew the run's log up to and including `seq`: those ticks go. */
  drawnThrough(runId: string, seq: number): void;
  /** The run ended where no lane draws it. */
  forget(runId: string): void;
}

export interface TickLane {
  place(window: { startMs: number; endMs: number }, pxWidth: number, live: boolean): void;
  drop(): void;
}

export interface PageTicks extends TickSink {
  /** The worker failed: it draws and holds nothing from then on. */
  readonly failed: boolean;
  /** Hands the canvas to the worker (once: a canvas is handed over for good) and draws the lane's ticks there. */
  lane(canvas: HTMLCanvasElement, runId: string, workerId: string, color: string): TickLane;
  /** A WebSocket, as far as the socket client uses one, held by the worker (the page's own once the worker failed). */
  WebSocket: typeof WebSocket;
}

/** The worker, as the page talks to it. */
export interface TickWorkerPort {
  postMessage(message: ToTickWorker, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<FromTickWorker>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

/** Canvases handed over, by element, with their lane number. */
const handedOver = new WeakMap<HTMLCanvasElement, number>();

export function createPageTicks(worker: TickWorkerPort): PageTicks {
  const post = (message: ToTickWorker, transfer?: Transferable[]) => worker.postMessage(message, transfer ?? []);
  /** Lanes let go of, dropped in the worker unless taken again first (a remount takes the same canvas again at once). */
  const dropping = new Map<number, ReturnType<typeof setTimeout>>();
  let nextLane = 1;

  const sockets = new Map<number, WorkerSocket>();
  let nextSocket = 1;
  let failed = false;
  const closed = (socket: WorkerSocket) => {
    sockets.delete(socket.id);
    socket.readyState = WorkerSocket.CLOSED;
    socket.onclose?.(new Event('close') as CloseEvent);
  };
  worker.onerror = () => {
    if (!failed) console.warn('racelab: the tick worker failed; the page holds its socket and draws on the main thread');
    failed = true;
    for (const socket of [...sockets.values()]) closed(socket);
  };
  worker.onmessage = (event) => {
    const m = event.data;
    const socket = sockets.get(m.id);
    if (!socket) return;
    if (m.type === 'open') {
      socket.readyState = WorkerSocket.OPEN;
      socket.onopen?.(new Event('open'));
    } else if (m.type === 'message') socket.onmessage?.(new MessageEvent('message', { data: m.data }));
    else closed(socket);
  };

  /** The part of a WebSocket the socket client uses: the connection itself is the worker's. */
  class WorkerSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    readonly OPEN = WorkerSocket.OPEN;
    readyState: number = WorkerSocket.CONNECTING;
    onopen: ((event: Event) => void) | null = null;
    onmessage: ((event: MessageEvent) => void) | null = null;
    onclose: ((event: CloseEvent) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    readonly id = nextSocket++;
    constructor(url: string | URL) {
      sockets.set(this.id, this);
      post({ type: 'open', id: this.id, url: String(url) });
    }
    send(data: string): void {
      post({ type: 'send', id: this.id, data });
    }
    close(): void {
      if (this.readyState === WorkerSocket.CLOSED) return;
      this.readyState = WorkerSocket.CLOSING;
      post({ type: 'close', id: this.id });
    }
  }

  /** The socket client's WebSocket: the worker's while it works, the page's own once it failed. */
  function PageSocket(url: string | URL): WebSocket | WorkerSocket {
    return failed ? new globalThis.WebSocket(url) : new WorkerSocket(url);
  }
  const { CONNECTING, OPEN, CLOSING, CLOSED } = WorkerSocket;
  Object.assign(PageSocket, { CONNECTING, OPEN, CLOSING, CLOSED });

  return {
    get failed() {
      return failed;
    },
    WebSocket: PageSocket as unknown as typeof WebSocket,
    drawnThrough: (runId, seq) => post({ type: 'drawn-through', runId, seq }),
    forget: (runId) => post({ type: 'forget', runId }),
    lane(canvas, runId, workerId, color) {
      let laneId = handedOver.get(canvas);
      if (laneId === undefined) {
        laneId = nextLane++;
        handedOver.set(canvas, laneId);
        const offscreen = canvas.transferControlToOffscreen();
        post({ type: 'lane', laneId, runId, workerId, canvas: offscreen, color }, [offscreen]);
      } else {
        clearTimeout(dropping.get(laneId));
        dropping.delete(laneId);
        post({ type: 'lane', laneId, runId, workerId, color });
      }
      const id = laneId;
      return {
        place: (w, pxWidth, live) =>
          post({ type: 'place', laneId: id, startMs: w.startMs, endMs: w.endMs, pxWidth, ratio: globalThis.devicePixelRatio || 1, live }),
        drop: () =>
          dropping.set(
            id,
            setTimeout(() => {
              dropping.delete(id);
              handedOver.delete(canvas);
              post({ type: 'drop-lane', laneId: id });
            }, 0),
          ),
      };
    },
  };
}

let started: PageTicks | null | undefined;

/**
 * The page's tick worker, started on first use; null where a canvas cannot be drawn off the
 * main thread, or once the worker failed.
 */
export function pageTicks(): PageTicks | null {
  if (started === undefined) started = start();
  return started?.failed ? null : started;
}

function start(): PageTicks | null {
  const able =
    typeof Worker === 'function' &&
    typeof OffscreenCanvas === 'function' &&
    typeof HTMLCanvasElement === 'function' &&
    'transferControlToOffscreen' in HTMLCanvasElement.prototype;
  if (!able) return null;
  return createPageTicks(new Worker(new URL('./tickWorker.ts', import.meta.url), { type: 'module' }));
}

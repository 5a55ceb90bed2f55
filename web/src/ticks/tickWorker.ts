// The tick worker: holds the page's socket to the server, hands each message on to the page
// as it comes, and draws a live run's events as ticks in their lanes, on canvases the page
// handed over, off the page's main thread. While a run streams thousands of events a second
// the page's main thread is busy (folding batches into the log, React drawing the lanes,
// each frame's style, layout and paint) and shares the machine's cores with the server and
// the run's workers; an event that waited for it waited to be seen. Here it waits for
// nothing but this worker's next frame, and the page draws it from the log as before.
import type { RunEvent } from '@racelab/shared';
import type { FromTickWorker, TicksDrawnProbe, ToTickWorker } from './protocol.js';
import { drawTicks, isMark } from './drawTicks.js';
import { TickBoard, type Tick } from './tickBoard.js';

interface Lane {
  runId: string;
  workerId: string;
  canvas: OffscreenCanvas;
  context: OffscreenCanvasRenderingContext2D | null;
  color: string;
  startMs: number;
  endMs: number;
  pxWidth: number;
  ratio: number;
  live: boolean;
  drawnAny: boolean;
}

const board = new TickBoard();
const lanes = new Map<number, Lane>();
const dirty = new Set<number>();
/** The page's socket, by the page's number for it. */
let socket: { id: number; ws: WebSocket } | null = null;
let frameAsked = false;

const tell = (message: FromTickWorker) => self.postMessage(message);

const askFrame = () => {
  if (frameAsked) return;
  frameAsked = true;
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(drawFrame);
  else setTimeout(drawFrame, 16);
};

const touchRun = (runId: string) => {
  for (const [id, lane] of lanes) if (lane.runId === runId) dirty.add(id);
  if (dirty.size > 0) askFrame();
};

function drawLane(lane: Lane): void {
  const context = lane.context;
  if (!context) return;
  // Held or replayed, the lane shows the log at its cursor: nothing newer.
  const ticks = lane.live ? board.lane(lane.runId, lane.workerId) : [];
  const target = { canvas: lane.canvas, context, drawnAny: lane.drawnAny };
  const drawn = drawTicks(target, ticks, lane, lane.pxWidth, lane.ratio, () => lane.color);
  lane.drawnAny = target.drawnAny;
  if (drawn) (globalThis as { __ticksDrawn?: TicksDrawnProbe }).__ticksDrawn?.(lane.workerId, drawn.first, drawn.last);
}

function drawFrame(): void {
  frameAsked = false;
  for (const id of dirty) {
    const lane = lanes.get(id);
    if (lane) drawLane(lane);
  }
  dirty.clear();
}

/**
 * The ticks among a message's events: those that draw a mark in their worker's lane. The
 * page's own socket checks every message against the schema and says what it cannot read;
 * here a message or an event that is not what the server sends is only left out.
 */
function ticksOf(message: unknown): { runId: string; ticks: Tick[] } | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; runId?: unknown; event?: unknown; events?: unknown };
  if (typeof m.runId !== 'string') return null;
  const events = m.type === 'run-events' && Array.isArray(m.events) ? (m.events as unknown[]) : m.type === 'run-event' ? [m.event] : null;
  if (!events) return null;
  const ticks: Tick[] = [];
  for (const e of events) {
    if (typeof e !== 'object' || e === null) continue;
    const event = e as RunEvent;
    if (typeof event.seq !== 'number' || typeof event.atMs !== 'number' || typeof event.type !== 'string') continue;
    if (typeof event.workerId !== 'string') continue;
    try {
      if (isMark(event)) ticks.push({ seq: event.seq, atMs: event.atMs, workerId: event.workerId });
    } catch {
      // Not an event this page knows how to draw: the page's socket says so.
    }
  }
  return { runId: m.runId, ticks };
}

function open(id: number, url: string): void {
  socket?.ws.close();
  const ws = new WebSocket(url);
  socket = { id, ws };
  ws.onopen = () => tell({ type: 'open', id });
  ws.onmessage = (m: MessageEvent) => {
    if (typeof m.data !== 'string') return;
    // The page first: it reads every message (and says what it cannot read).
    tell({ type: 'message', id, data: m.data });
    if (!m.data.includes('"run-event')) return;
    let got: ReturnType<typeof ticksOf>;
    try {
      got = ticksOf(JSON.parse(m.data));
    } catch {
      return;
    }
    if (got && board.add(got.runId, got.ticks)) touchRun(got.runId);
  };
  ws.onclose = () => {
    if (socket?.ws === ws) socket = null;
    tell({ type: 'close', id });
  };
  ws.onerror = () => ws.close();
}

self.onmessage = (m: MessageEvent<ToTickWorker>) => {
  const message = m.data;
  switch (message.type) {
    case 'lane': {
      const known = lanes.get(message.laneId);
      const canvas = message.canvas ?? known?.canvas;
      if (!canvas) return;
      lanes.set(message.laneId, {
        runId: message.runId,
        workerId: message.workerId,
        canvas,
        context: known?.context ?? canvas.getContext('2d'),
        color: message.color,
        startMs: known?.startMs ?? 0,
        endMs: known?.endMs ?? 1,
        pxWidth: known?.pxWidth ?? 0,
        ratio: known?.ratio ?? 1,
        live: known?.live ?? true,
        drawnAny: known?.drawnAny ?? false,
      });
      dirty.add(message.laneId);
      askFrame();
      return;
    }
    case 'place': {
      const lane = lanes.get(message.laneId);
      if (!lane) return;
      Object.assign(lane, {
        startMs: message.startMs,
        endMs: message.endMs,
        pxWidth: message.pxWidth,
        ratio: message.ratio,
        live: message.live,
      });
      dirty.add(message.laneId);
      askFrame();
      return;
    }
    case 'drop-lane':
      lanes.delete(message.laneId);
      dirty.delete(message.laneId);
      return;
    case 'drawn-through':
      if (board.drawnThrough(message.runId, message.seq)) touchRun(message.runId);
      return;
    case 'forget':
      board.forget(message.runId);
      touchRun(message.runId);
      return;
    case 'open':
      open(message.id, message.url);
      return;
    case 'send':
      if (socket?.id === message.id && socket.ws.readyState === WebSocket.OPEN) socket.ws.send(message.data);
      return;
    case 'close':
      if (socket?.id === message.id) socket.ws.close();
      return;
  }
};

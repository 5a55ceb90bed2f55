import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageTicks, pageTicks, type TickWorkerPort } from './pageTicks.js';
import type { FromTickWorker, ToTickWorker } from './protocol.js';

/** The worker as the page sees it: what the page posted, and a way to answer. */
function fakeWorker() {
  const sent: ToTickWorker[] = [];
  const transfers: Transferable[][] = [];
  const port: TickWorkerPort = {
    postMessage(message, transfer) {
      sent.push(message);
      transfers.push(transfer ?? []);
    },
    onmessage: null,
    onerror: null,
  };
  const answer = (message: FromTickWorker) => port.onmessage?.(new MessageEvent('message', { data: message }));
  const fail = () => port.onerror?.(new Event('error') as ErrorEvent);
  return { port, sent, transfers, answer, fail };
}

afterEach(() => vi.useRealTimers());

describe("the page's side of the tick worker", () => {
  it("is a WebSocket to the socket client: the worker opens it, and what it says reaches the socket's handlers", () => {
    const w = fakeWorker();
    const ticks = createPageTicks(w.port);
    const socket = new ticks.WebSocket('ws://host/ws');
    const seen: string[] = [];
    socket.onopen = () => seen.push('open');
    socket.onmessage = (e) => seen.push(`message ${String(e.data)}`);
    socket.onclose = () => seen.push('close');
    expect(w.sent).toEqual([{ type: 'open', id: 1, url: 'ws://host/ws' }]);
    expect(socket.readyState).toBe(0);
    w.answer({ type: 'open', id: 1 });
    expect(socket.readyState).toBe(socket.OPEN);
    socket.send('{"type":"start-run"}');
    expect(w.sent.at(-1)).toEqual({ type: 'send', id: 1, data: '{"type":"start-run"}' });
    w.answer({ type: 'message', id: 1, data: '{"type":"hello"}' });
    // A reconnect: the next socket has its own number, and the last one's words go nowhere.
    const next = new ticks.WebSocket('ws://host/ws');
    const nextSeen: string[] = [];
    next.onmessage = (e) => nextSeen.push(String(e.data));
    w.answer({ type: 'message', id: 2, data: '{"type":"run-event"}' });
    socket.close();
    expect(w.sent.at(-1)).toEqual({ type: 'close', id: 1 });
    w.answer({ type: 'close', id: 1 });
    w.answer({ type: 'message', id: 1, data: 'late' });
    expect(socket.readyState).toBe(3);
    expect(seen).toEqual(['open', 'message {"type":"hello"}', 'close']);
    expect(nextSeen).toEqual(['{"type":"run-event"}']);
  });

  it("fails over to the page's own socket when the worker fails: its socket closes, the next one is the page's", () => {
    const native: string[] = [];
    vi.stubGlobal(
      'WebSocket',
      class {
        constructor(url: string) {
          native.push(url);
        }
      },
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const w = fakeWorker();
      const ticks = createPageTicks(w.port);
      const socket = new ticks.WebSocket('ws://host/ws');
      const seen: string[] = [];
      socket.onclose = () => seen.push('close');
      w.answer({ type: 'open', id: 1 });
      expect(ticks.failed).toBe(false);
      w.fail();
      expect(ticks.failed).toBe(true);
      expect(seen).toEqual(['close']);
      expect(socket.readyState).toBe(3);
      expect(warn).toHaveBeenCalledOnce();
      // The socket client reconnects with the same class: now a socket of the page's own.
      new ticks.WebSocket('ws://host/ws');
      expect(native).toEqual(['ws://host/ws']);
      expect(w.sent.filter((m) => m.type === 'open')).toHaveLength(1);
      expect(ticks.WebSocket.OPEN).toBe(1);
    } finally {
      vi.unstubAllGlobals();
      warn.mockRestore();
    }
  });

  it('tells the worker which ticks the lanes drew and which runs to forget', () => {
    const w = fakeWorker();
    const ticks = createPageTicks(w.port);
    ticks.drawnThrough('r', 41);
    ticks.forget('s');
    expect(w.sent).toEqual([
      { type: 'drawn-through', runId: 'r', seq: 41 },
      { type: 'forget', runId: 's' },
    ]);
  });

  it('hands a canvas over once; a lane mounted again at once keeps it, one let go is dropped', () => {
    vi.useFakeTimers();
    const w = fakeWorker();
    const ticks = createPageTicks(w.port);
    const offscreen = { offscreen: true } as unknown as OffscreenCanvas;
    const transferControlToOffscreen = vi.fn(() => offscreen);
    const canvas = { transferControlToOffscreen } as unknown as HTMLCanvasElement;
    const first = ticks.lane(canvas, 'r', 'worker-1', '#abc');
    expect(w.sent[0]).toEqual({ type: 'lane', laneId: 1, runId: 'r', workerId: 'worker-1', canvas: offscreen, color: '#abc' });
    expect(w.transfers[0]).toEqual([offscreen]);
    first.place({ startMs: 0, endMs: 500 }, 800, true);
    expect(w.sent[1]).toEqual({ type: 'place', laneId: 1, startMs: 0, endMs: 500, pxWidth: 800, ratio: 1, live: true });
    // Unmounted and mounted again in the same commit (React's strict mode does this).
    first.drop();
    const again = ticks.lane(canvas, 'r', 'worker-1', '#abc');
    vi.runAllTimers();
    expect(transferControlToOffscreen).toHaveBeenCalledTimes(1);
    expect(w.sent[2]).toEqual({ type: 'lane', laneId: 1, runId: 'r', workerId: 'worker-1', color: '#abc' });
    expect(w.sent.some((m) => m.type === 'drop-lane')).toBe(false);
    again.drop();
    vi.runAllTimers();
    expect(w.sent.at(-1)).toEqual({ type: 'drop-lane', laneId: 1 });
  });

  it('is not started where a canvas cannot be drawn off the main thread (here: no OffscreenCanvas)', () => {
    expect(typeof OffscreenCanvas).toBe('undefined');
    expect(pageTicks()).toBeNull();
  });
});

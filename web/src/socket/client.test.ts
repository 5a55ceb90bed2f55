import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../model/fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { createAppStore } from '../store/index.js';
import { selectCurrentEvents } from '../store/selectors.js';
import { backoffDelay, BACKOFF_MAX_MS } from './backoff.js';
import { CALM_MS, createArrivals } from '../store/arrivals.js';
import { socketUrl, startSocket } from './client.js';

class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

function harness() {
  FakeSocket.all = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const store = createAppStore();
  let clock = 1000;
  const setTimer = (fn: () => void, ms: number) => timers.push({ fn, ms });
  const arrivals = createArrivals({ store, now: () => clock, setTimer, clearTimer: () => {}, requestFrame: null });
  const client = startSocket({
    url: 'ws://host/ws',
    store,
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    setTimer,
    clearTimer: () => {},
    arrivals,
  });
  /** The seqs of a run's events that worker-1's lane draws as ticks until the timeline draws them from the log. */
  const undrawn = (runId: string) => arrivals.lane(runId, 'worker-1').map((t) => t.seq);
  /** Runs the timers due now; `runTimers` also those they set (a run's end, deferred to the next batch). */
  const runTimersOnce = () => timers.splice(0).forEach((t) => t.fn());
  const runTimers = () => {
    while (timers.length > 0) runTimersOnce();
  };
  const socket = () => FakeSocket.all.at(-1)!;
  /** Connects, starts a run and has the server accept it as `runId`. */
  const acceptRun = (runId: string, controlKey: string) => {
    socket().open();
    socket().receive({ type: 'hello', catalog: [duplicateJobManifest] });
    store.getState().startRun();
    const request = JSON.parse(socket().sent[0]!) as { type: string; requestId: string };
    socket().receive({
      type: 'run-accepted',
      requestId: request.requestId,
      runId,
      controlKey,
      workers: ['worker-1', 'worker-2', 'worker-3'],
    });
  };
  return { store, client, arrivals, undrawn, timers, runTimers, runTimersOnce, acceptRun, tick: (ms: number) => (clock += ms), socket };
}

describe('socket client', () => {
  it('builds the URL from the page location', () => {
    expect(socketUrl('http://127.0.0.1:7070/?scenario=fencing')).toBe('ws://127.0.0.1:7070/ws');
    expect(socketUrl('https://racelab.dev/')).toBe('wss://racelab.dev/ws');
    // Behind a proxy that serves the page under a sub-path, the socket is beside it.
    expect(socketUrl('https://example.org/racelab/?replay=a.json#x')).toBe('wss://example.org/racelab/ws');
  });

  it('backs off exponentially with jitter, up to a ceiling', () => {
    expect(backoffDelay(0, 0)).toBe(125);
    expect(backoffDelay(0, 0.999)).toBeLessThanOrEqual(250);
    expect(backoffDelay(3, 1)).toBe(2000);
    expect(backoffDelay(30, 1)).toBe(BACKOFF_MAX_MS);
  });

  it('feeds the store: catalog, run acceptance, batched events', () => {
    const h = harness();
    expect(h.store.getState().connection).toBe('connecting');
    h.socket().open();
    // Open is not yet ready: a run needs the catalog, which comes with the server's hello.
    expect(h.store.getState().connection).toBe('connecting');
    h.socket().receive({ type: 'hello', catalog: [duplicateJobManifest] });
    expect(h.store.getState().connection).toBe('connected');
    expect(h.store.getState().scenarioId).toBe('duplicate-job');

    expect(h.store.getState().startRun()).toBe(true);
    const request = JSON.parse(h.socket().sent[0]!) as { type: string; requestId: string };
    expect(request.type).toBe('start-run');
    h.socket().receive({
      type: 'run-accepted',
      requestId: request.requestId,
      runId: 'run-9',
      controlKey: 'c0ffee',
      workers: ['worker-1', 'worker-2', 'worker-3'],
    });
    const events = blindDelRun();
    for (const event of events.slice(0, 10)) h.socket().receive({ type: 'run-event', runId: 'run-9', event });
    expect(selectCurrentEvents(h.store.getState())).toHaveLength(0); // not yet flushed
    h.runTimers();
    expect(selectCurrentEvents(h.store.getState())).toHaveLength(10);
    expect(h.store.getState().runs['run-9']!.clientOriginMs).toBe(1000 - events[9]!.atMs);
    // Events that came together on the server come in one message, in order.
    h.socket().receive({ type: 'run-events', runId: 'run-9', events: events.slice(10, 20) });
    h.runTimers();
    expect(selectCurrentEvents(h.store.getState()).map((e) => e.seq)).toEqual(events.slice(0, 20).map((e) => e.seq));
  });

  it("applies a run's end in the batch after the events that came with it", () => {
    const h = harness();
    h.acceptRun('run-4', 'c0ffee');
    const events = blindDelRun();
    expect(events.at(-1)!.type).toBe('run-finished');
    h.socket().receive({ type: 'run-events', runId: 'run-4', events });
    h.runTimersOnce();
    // The events before the end are drawn first; the verdict's frame comes next.
    expect(selectCurrentEvents(h.store.getState()).map((e) => e.seq)).toEqual(events.slice(0, -1).map((e) => e.seq));
    expect(h.timers).toHaveLength(1);
    h.runTimersOnce();
    expect(selectCurrentEvents(h.store.getState()).map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(h.timers).toHaveLength(0);
  });

  it("draws a run's events as arrivals until the timeline draws them; holds a fast run's from its log for up to CALM_MS, never its end", () => {
    const h = harness();
    h.acceptRun('run-5', 'c0ffee');
    const note = (seq: number, atMs: number) => ({ seq, atMs, workerId: 'worker-1', type: 'note', text: `#${seq}` }) as const;
    const logged = () => selectCurrentEvents(h.store.getState()).length;
    // A few events: the page's usual batch, into the log at the next flush.
    h.socket().receive({ type: 'run-events', runId: 'run-5', events: [note(1, 1), note(2, 2)] });
    h.runTimersOnce();
    expect(logged()).toBe(2);
    expect(h.undrawn('run-5')).toEqual([1, 2]);
    h.arrivals.drawnThrough('run-5', 2);
    // 40 more within a few ms (400 a second and more): held, and shown as they arrive.
    h.tick(5);
    h.socket().receive({ type: 'run-events', runId: 'run-5', events: Array.from({ length: 40 }, (_, i) => note(3 + i, 5 + i / 10)) });
    h.runTimersOnce();
    expect(logged()).toBe(2);
    expect(h.undrawn('run-5')).toEqual(Array.from({ length: 40 }, (_, i) => 3 + i));
    // CALM_MS after they last went into the log, all that came meanwhile does; they stay
    // arrivals until the timeline has drawn them from the log, and no longer.
    h.tick(CALM_MS);
    h.socket().receive({ type: 'run-events', runId: 'run-5', events: [note(43, 100)] });
    h.runTimersOnce();
    expect(logged()).toBe(43);
    expect(h.undrawn('run-5')).toEqual(Array.from({ length: 41 }, (_, i) => 3 + i));
    h.arrivals.drawnThrough('run-5', 20);
    expect(h.undrawn('run-5')).toEqual(Array.from({ length: 23 }, (_, i) => 21 + i));
    h.arrivals.drawnThrough('run-5', 43);
    expect(h.undrawn('run-5')).toEqual([]);
    // A run's end is never held, nor what came with it.
    h.tick(5);
    h.socket().receive({ type: 'run-events', runId: 'run-5', events: Array.from({ length: 40 }, (_, i) => note(44 + i, 105 + i / 10)) });
    h.socket().receive({
      type: 'run-event',
      runId: 'run-5',
      event: { seq: 84, atMs: 110, workerId: null, type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' },
    });
    h.runTimers();
    expect(logged()).toBe(84);
    // (The end itself is no mark in a worker's lane.)
    expect(h.undrawn('run-5')).toEqual(Array.from({ length: 40 }, (_, i) => 44 + i));
    h.arrivals.drawnThrough('run-5', 84);
    expect(h.undrawn('run-5')).toEqual([]);
  });

  it('forgets the arrivals of a run that ended off screen: no timeline will draw them', () => {
    const h = harness();
    h.acceptRun('run-6', 'c0ffee');
    const note = (seq: number) => ({ seq, atMs: seq, workerId: 'worker-1', type: 'note', text: `#${seq}` }) as const;
    h.socket().receive({ type: 'run-events', runId: 'run-6', events: [note(1), note(2)] });
    h.runTimers();
    expect(h.undrawn('run-6')).toHaveLength(2);
    h.store.setState({ shown: [] }); // the page went on to something else
    h.socket().receive({
      type: 'run-event',
      runId: 'run-6',
      event: { seq: 3, atMs: 3, workerId: null, type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' },
    });
    h.runTimers();
    expect(h.undrawn('run-6')).toEqual([]);
  });

  it('refuses a message the schema does not take: nothing reaches the store, the page says why', () => {
    const h = harness();
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => logged.push(args.join(' '));
    try {
      h.acceptRun('run-3', 'c0ffee');
      const [first, second] = blindDelRun();
      h.socket().receive({ type: 'run-events', runId: 'run-3', events: [first, { ...second, atMs: 'soon' }] });
      h.runTimers();
    } finally {
      console.error = error;
    }
    expect(selectCurrentEvents(h.store.getState())).toHaveLength(0);
    expect(h.store.getState().serverError).toContain("at 'events.1.atMs': Invalid input: expected number, received string");
    expect(logged).toEqual([expect.stringContaining("invalid server message 'run-events' at 'events.1.atMs'")]);
  });

  it('reconnects after a drop and marks the followed run lost', () => {
    const h = harness();
    h.socket().open();
    h.socket().receive({ type: 'hello', catalog: [duplicateJobManifest] });
    h.store.getState().startRun();
    const first = h.socket();
    first.close();
    expect(h.store.getState().connection).toBe('reconnecting');
    expect(h.store.getState().transport).toBeNull();
    expect(h.store.getState().pending).toEqual([]);
    expect(h.timers).toHaveLength(1);
    h.runTimers();
    expect(h.socket()).not.toBe(first);
    h.socket().open();
    expect(h.store.getState().connection).toBe('reconnecting');
    h.socket().receive({ type: 'hello', catalog: [duplicateJobManifest] });
    expect(h.store.getState().connection).toBe('connected');
  });

  it('resumes a followed run after a reconnect, and keeps it lost when the server forgot it', () => {
    const h = harness();
    h.acceptRun('run-5', 'abc123');
    const events = blindDelRun();
    for (const event of events.slice(0, 6)) h.socket().receive({ type: 'run-event', runId: 'run-5', event });
    h.socket().close();
    h.runTimers(); // flushes the batch and reconnects
    expect(h.store.getState().runs['run-5']!.lost).toBe(true);
    h.socket().open();
    // With the key the run came with: the page takes control of its own run again.
    expect(JSON.parse(h.socket().sent[0]!)).toEqual({ type: 'subscribe', runId: 'run-5', afterSeq: 5, controlKey: 'abc123' });
    expect(h.store.getState().runs['run-5']!.lost).toBe(false);
    for (const event of events.slice(3)) h.socket().receive({ type: 'run-event', runId: 'run-5', event });
    h.runTimers();
    expect(selectCurrentEvents(h.store.getState())).toHaveLength(events.length); // no duplicates
    h.socket().receive({ type: 'run-unknown', runId: 'run-5' });
    expect(h.store.getState().runs['run-5']!.lost).toBe(true);
  });

  it('says a run was lost with its server, never resumes it, and starts it again on request', () => {
    const h = harness();
    h.acceptRun('run-6', 'abc123');
    for (const event of blindDelRun().slice(0, 4)) h.socket().receive({ type: 'run-event', runId: 'run-6', event });
    h.socket().close();
    h.runTimers();
    h.socket().open();
    expect(JSON.parse(h.socket().sent[0]!)).toMatchObject({ type: 'subscribe', runId: 'run-6' });
    h.socket().receive({ type: 'run-lost', runId: 'run-6', server: 's2' });
    const run = h.store.getState().runs['run-6']!;
    expect(run.lost).toBe(true);
    expect(run.serverLost).toEqual({ server: 's2' });
    // A later reconnect asks no server for it again: it is gone with the one that ran it.
    h.socket().close();
    h.runTimers();
    h.socket().open();
    expect(h.socket().sent.map((m) => (JSON.parse(m) as { type: string }).type)).not.toContain('subscribe');
    h.socket().receive({ type: 'hello', catalog: [duplicateJobManifest] });
    expect(h.store.getState().runAgain('run-6')).toBe(true);
    expect(JSON.parse(h.socket().sent.at(-1)!)).toMatchObject({ type: 'start-run', scenario: run.scenario, variant: run.variant });
  });

  it('shows a start waiting in line, takes its place again after a reconnect, and leaves the line on request', () => {
    const h = harness();
    h.socket().open();
    h.socket().receive({ type: 'hello', catalog: [duplicateJobManifest] });
    h.store.getState().startRun();
    const { requestId } = JSON.parse(h.socket().sent[0]!) as { requestId: string };
    h.socket().receive({ type: 'run-queued', requestId, position: 4, estimateMs: 6000, queueKey: 'c0ffee' });
    expect(h.store.getState().pending[0]!.queued).toEqual({ position: 4, estimateMs: 6000, queueKey: 'c0ffee' });
    h.socket().close();
    // Kept through the drop, and asked for again with its key.
    expect(h.store.getState().pending).toHaveLength(1);
    expect(h.store.getState().runError).toBeNull();
    h.runTimers();
    h.socket().open();
    expect(JSON.parse(h.socket().sent[0]!)).toEqual({ type: 'rejoin-queue', requestId, queueKey: 'c0ffee' });
    h.socket().receive({ type: 'run-queued', requestId, position: 2, estimateMs: 3000, queueKey: 'c0ffee' });
    expect(h.store.getState().pending[0]!.queued?.position).toBe(2);
    h.store.getState().leaveQueue();
    expect(JSON.parse(h.socket().sent[1]!)).toEqual({ type: 'cancel-queued', requestId });
    expect(h.store.getState().pending).toEqual([]);
  });

  it('stops for good', () => {
    const h = harness();
    h.socket().open();
    h.client.stop();
    expect(h.timers).toHaveLength(0);
  });
});

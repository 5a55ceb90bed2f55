// A page's side of the WebSocket, for the benchmarks that drive the real server: start a
// run and time it from the start-run frame to its first worker event and its verdict.
import { eventsOf, readServerMessage, type RunEvent } from '@racelab/shared';
import { WebSocket } from 'ws';

/** Events only the server appends for a worker; anything else a worker emitted itself. */
const SERVER_SIDE = new Set(['worker-started', 'worker-exited', 'process-paused', 'process-resumed', 'process-killed']);

export interface TimedRun {
  /** start-run sent → the first event a worker emitted arrived here, ms. */
  firstWorkerEventMs: number;
  /** start-run sent → run-finished (the verdict) arrived here, ms. */
  verdictMs: number;
  /** start-run sent → run-started arrived (run stores, scenario setup, workers taken or forked), ms. */
  runStartedMs: number;
  /** start-run sent → the last worker-exited arrived, ms. */
  lastExitMs: number;
  events: number;
  finished: Extract<RunEvent, { type: 'run-finished' }>;
}

export class SocketClient {
  private constructor(private readonly ws: WebSocket) {}

  static async connect(httpUrl: string): Promise<SocketClient> {
    const ws = new WebSocket(`${httpUrl.replace(/^http/, 'ws')}/ws`);
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.on('message', function hello(data) {
        if (readServerMessage((data as Buffer).toString()).type !== 'hello') return;
        ws.off('message', hello);
        resolve();
      });
    });
    return new SocketClient(ws);
  }

  /** Starts a run and resolves at its verdict; rejects if it is rejected or fails. */
  run(scenario: string, variant: string, params: Record<string, unknown>, timeoutMs = 300_000): Promise<TimedRun> {
    const requestId = `bench-${Math.random().toString(36).slice(2)}`;
    return new Promise((resolve, reject) => {
      let runId: string | null = null;
      let first = Number.NaN;
      let started = Number.NaN;
      let lastExit = Number.NaN;
      let events = 0;
      const timer = setTimeout(() => done(new Error(`no verdict within ${timeoutMs} ms`)), timeoutMs);
      const done = (error: Error | null, result?: TimedRun) => {
        clearTimeout(timer);
        this.ws.off('message', onMessage);
        if (error) reject(error);
        else resolve(result!);
      };
      const onMessage = (data: Buffer) => {
        const m = readServerMessage(data.toString());
        if (m.type === 'run-accepted' && m.requestId === requestId) runId = m.runId;
        else if (m.type === 'run-rejected' && m.requestId === requestId) done(new Error(m.error));
        else if ((m.type === 'run-event' || m.type === 'run-events') && m.runId === runId) {
          for (const e of eventsOf(m)) onEvent(e);
        }
      };
      const onEvent = (e: RunEvent) => {
        events++;
        if (e.workerId !== null && !SERVER_SIDE.has(e.type) && Number.isNaN(first)) first = performance.now() - t0;
        if (e.type === 'run-started') started = performance.now() - t0;
        if (e.type === 'worker-exited') lastExit = performance.now() - t0;
        if (e.type === 'run-failed') done(new Error(e.message));
        if (e.type === 'run-finished') {
          done(null, {
            firstWorkerEventMs: first,
            verdictMs: performance.now() - t0,
            runStartedMs: started,
            lastExitMs: lastExit,
            events,
            finished: e,
          });
        }
      };
      this.ws.on('message', onMessage);
      const t0 = performance.now();
      this.ws.send(JSON.stringify({ type: 'start-run', requestId, scenario, variant, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

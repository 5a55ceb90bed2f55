// The server's numbers in Prometheus text format (GET /metrics): runs going and finished with
// their verdicts, run durations, run slots, the worker pool, the stores' round trips, the
// pages connected, and the process's own (memory, CPU, event loop). A registry of its own, not
// prom-client's global one: two servers in one process (tests) each count their own runs.
// Runs are counted from one place, the playground's run listener: every run a page, an
// exercise check, the scorecard or the CLI makes passes through Playground.prepare.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { REDIS_STORE, type CoreStore } from '@racelab/shared';
import type { Playground, RunKind } from '../runs/playground.js';
import type { Run } from '../runs/run.js';
import type { SocketServer } from './socketServer.js';

export const METRICS_PATH = '/metrics';

/** Run durations, in s: the quickest scenarios end in about a second, none lasts past MAX_RUN_MS (300 s). */
const RUN_SECONDS = [0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60, 120, 300];
/** Waits in line, in s: a slot frees every few seconds on a busy server; a long line waits minutes. */
const QUEUE_WAIT_SECONDS = [0.1, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
/** Store round trips, in s: a loopback ping takes a fraction of a ms; the store watch calls 1.5 s silence. */
const ROUND_TRIP_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5];

/** A run's verdict as counted: pass or fail from the stores, or failed when the run ended without one (cancelled, broken). */
type CountedVerdict = 'pass' | 'fail' | 'failed';

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(playground: Playground, sockets: SocketServer) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    for (const { name, help, read } of readings(playground, sockets)) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    }
    const finished = new Counter({
      name: 'racelab_runs_finished_total',
      help: 'Runs ended, by scenario, kind of code (correct, broken, mutant, exercise), verdict (pass, fail, or failed: ended without one) and whether the verdict was the expected one (true, false; none when failed).',
      labelNames: ['scenario', 'kind', 'verdict', 'as_expected'] as const,
      registers,
    });
    const duration = new Histogram({
      name: 'racelab_run_duration_seconds',
      help: 'From a run being made to its last event (run-finished or run-failed), in seconds, by scenario.',
      labelNames: ['scenario'] as const,
      buckets: RUN_SECONDS,
      registers,
    });
    const roundTrip = new Histogram({
      name: 'racelab_store_round_trip_seconds',
      help: "Round trip of the store watch's pings, in seconds, by store (redis, postgresql): pinged while runs go and on each readiness probe.",
      labelNames: ['store'] as const,
      buckets: ROUND_TRIP_SECONDS,
      registers,
    });
    const queueWait = new Histogram({
      name: 'racelab_queue_wait_seconds',
      help: 'How long a run start waited in line before it got a slot, in seconds (starts that found a free slot are not counted).',
      buckets: QUEUE_WAIT_SECONDS,
      registers,
    });
    this.unsubscribe.push(
      sockets.desk.onWait((ms) => queueWait.observe(ms / 1000)),
      playground.onRun((run, about) => countRun(run, about, finished, duration)),
      playground.onStoreRoundTrip((store, ms) => roundTrip.observe({ store: storeLabel(store) }, ms / 1000)),
    );
  }

  /** The metrics as Prometheus text, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** Stops counting: the playground's listeners are removed. */
  close(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }
}

/** A gauge read at each scrape. */
interface Reading {
  name: string;
  help: string;
  read: () => number;
}

/** The gauges: what the server holds right now, read when Prometheus asks. */
function readings(playground: Playground, sockets: SocketServer): Reading[] {
  return [
    {
      name: 'racelab_runs_going',
      help: 'Runs started and not yet settled (cleaned up) on this server.',
      read: () => playground.running.size,
    },
    {
      name: 'racelab_runs_queued',
      help: 'Run starts waiting in line for a slot (a start past the line\'s bound is answered "busy").',
      read: () => sockets.desk.length,
    },
    {
      name: 'racelab_run_slots',
      help: 'Runs the pages may have going on this server at once.',
      read: () => sockets.limits.maxRunsPerServer,
    },
    {
      name: 'racelab_run_slots_taken',
      help: "Slots taken by the pages' runs still going or cleaning up (the server is not ready when all are).",
      read: () => sockets.directory.active,
    },
    {
      name: 'racelab_worker_pool_processes',
      help: 'Worker processes alive in the warm pool, idle or in a run.',
      read: () => playground.pool.size,
    },
    { name: 'racelab_worker_pool_idle', help: 'Warm worker processes waiting for a run.', read: () => playground.pool.idleCount },
    {
      name: 'racelab_worker_pool_target',
      help: 'Worker processes the pool keeps warm between runs (RACELAB_POOL_SIZE).',
      read: () => playground.pool.target,
    },
    { name: 'racelab_websocket_connections', help: 'Pages connected over the WebSocket right now.', read: () => sockets.connections },
  ];
}

/** Counts the run once its log's last event is in: its verdict and how long it took. */
function countRun(
  run: Run,
  about: { scenario: string; kind: RunKind },
  finished: Counter<'scenario' | 'kind' | 'verdict' | 'as_expected'>,
  duration: Histogram<'scenario'>,
): void {
  const madeAt = performance.now();
  const stop = run.onEvent((event) => {
    if (event.type !== 'run-finished' && event.type !== 'run-failed') return;
    stop();
    const verdict: CountedVerdict = event.type === 'run-finished' ? event.verdict : 'failed';
    const asExpected = event.type === 'run-finished' ? String(event.verdict === event.expectedVerdict) : 'none';
    finished.inc({ scenario: about.scenario, kind: about.kind, verdict, as_expected: asExpected });
    duration.observe({ scenario: about.scenario }, (performance.now() - madeAt) / 1000);
  });
}

/** The store's label: lower case, as Prometheus labels usually are. */
function storeLabel(store: CoreStore): string {
  return store === REDIS_STORE ? 'redis' : 'postgresql';
}

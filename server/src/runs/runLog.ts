// A run's log, the only truth about a run: every event numbered in the order it was
// appended and stamped in ms since the run started, handed to each listener as it comes.
// It ends with one last event (run-finished or run-failed); nothing comes after the end.
import type { RunEvent, ServerEventBody } from '@racelab/shared';
import { monotonicNs, msSince } from '../time/clock.js';

type Listener = (event: RunEvent) => void;

/** What the server or a worker says; the log adds seq, atMs and workerId. */
export type EventBody = ServerEventBody | Omit<RunEvent, 'seq' | 'atMs' | 'workerId'>;

export class RunLog {
  readonly events: RunEvent[] = [];
  private readonly listeners = new Set<Listener>();
  /** The run's time zero (monotonic ns): when the log was made, then when the run started. */
  private startNs = monotonicNs();
  private closed = false;

  /** True once the last event is in (see end). */
  get ended(): boolean {
    return this.closed;
  }

  /** The run's time zero as workers get it (a decimal string of monotonic ns). */
  get startedAtNs(): bigint {
    return this.startNs;
  }

  /** Sets the run's time zero to now: events count from here, as the workers' do. */
  startClock(): void {
    this.startNs = monotonicNs();
  }

  /** Subscribes to every event appended from now on; returns the unsubscribe. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Numbers and appends one event (`atMs` as the worker stamped it, or now); nothing once the log has ended. */
  append(workerId: string | null, body: EventBody, atMs?: number): void {
    if (this.closed) return;
    this.push(workerId, body, atMs);
  }

  /** Appends the log's last event; nothing comes after it (a listener that reacts to it appends nothing either). */
  end(body: Extract<EventBody, { type: 'run-finished' | 'run-failed' }>): void {
    if (this.closed) return;
    this.closed = true;
    this.push(null, body);
  }

  /** Drops every listener: the run is over and its log is only read from now on. */
  stopListening(): void {
    this.listeners.clear();
  }

  private push(workerId: string | null, body: EventBody, atMs?: number): void {
    const event = { ...body, seq: this.events.length, atMs: atMs ?? msSince(this.startNs), workerId } as RunEvent;
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }
}

// Run events on their way to one page, in batches. A page pays for each message it
// receives (a task, a parse, a wake-up of its socket), and a busy run's events arrive from
// its workers one by one: so a batch leaves at most every `gapMs`, carrying whatever came
// meanwhile, and an event after a quiet spell leaves at once (in the next turn of the event
// loop, with any that come in the same turn).
import type { RunEvent } from '@racelab/shared';

/**
 * Least time between two batches to one page, in ms: half a frame at 60 Hz. A page folds
 * what came into its log once a frame anyway, so a shorter gap only adds messages (each a
 * task on the page's main thread, and a wake-up of the browser's network process): at
 * 2,000 events a second a page gets at most 125 messages a second instead of ~1,700, each
 * event at most 8 ms late. (`npm run bench`'s event to pixel on a 2-core machine running
 * the page, the server and four emitting workers: at 4 ms the machine was busy 90-94 % of a
 * run, at 8 ms 80-89 %; the median event reached the screen 36-56 ms after its emit in three
 * passes at 4 ms and 31 ms in one at 8.)
 */
export const EVENTS_GAP_MS = 8;

export class EventBatcher {
  private readonly waiting = new Map<string, RunEvent[]>();
  private scheduled: { cancel(): void } | null = null;
  private lastFlushMs = Number.NEGATIVE_INFINITY;

  constructor(
    /** Sends one run's events, in order. */
    private readonly send: (runId: string, events: RunEvent[]) => void,
    private readonly gapMs = EVENTS_GAP_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(runId: string, event: RunEvent): void {
    let events = this.waiting.get(runId);
    if (!events) this.waiting.set(runId, (events = []));
    events.push(event);
    if (this.scheduled) return;
    const waitMs = this.lastFlushMs + this.gapMs - this.now();
    if (waitMs <= 0) {
      const immediate = setImmediate(() => this.flush());
      this.scheduled = { cancel: () => clearImmediate(immediate) };
    } else {
      const timer = setTimeout(() => this.flush(), waitMs);
      this.scheduled = { cancel: () => clearTimeout(timer) };
    }
  }

  /** Sends what is waiting now (before any other message, so that nothing overtakes it). */
  flush(): void {
    this.scheduled?.cancel();
    this.scheduled = null;
    if (this.waiting.size === 0) return;
    this.lastFlushMs = this.now();
    const batches = [...this.waiting];
    this.waiting.clear();
    for (const [runId, events] of batches) this.send(runId, events);
  }

  /** Drops what is waiting: the page has gone. */
  close(): void {
    this.scheduled?.cancel();
    this.scheduled = null;
    this.waiting.clear();
  }
}

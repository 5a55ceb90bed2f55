// The server's line of run starts (runQueue.ts keeps its fair order): a start that finds every
// run slot taken waits here with its position and an estimate (waitEstimate.ts), sent to its
// page again whenever they change. A slot freed goes to the first place in order whose page is
// here and whose run fits the worker processes left. A page whose socket drops keeps its
// places for `queueGraceMs`: back in time with each place's key (rejoin-queue), it has them
// again; otherwise they lapse. A place whose page is away keeps its position but is skipped.
import { randomBytes } from 'node:crypto';
import type { ServerMessage, ValidClientMessage } from '@racelab/shared';
import type { SocketLimits } from './limits.js';
import { RunQueue, type Place } from './runQueue.js';
import { estimateWaitMs, RecentDurations } from './waitEstimate.js';

/** A page that may hold places in line. */
export interface QueueOwner {
  send(message: ServerMessage): void;
  /** The slot is free: the page starts the run of this place now. */
  admit(place: Waiting): void;
  /** Takes the page id of a place it rejoined, so that its starts share one turn again. */
  adopt(pageId: string): void;
}

/** A start in line: the page's request as it sent it, and who waits for it. */
export interface Waiting extends Place {
  queueKey: string;
  message: Extract<ValidClientMessage, { type: 'start-run' }>;
  workerCount: number;
  enqueuedAtMs: number;
  /** Null while the page is away (its socket dropped). */
  owner: QueueOwner | null;
  lapse?: NodeJS.Timeout;
  /** What the page was told last, so that only a change is sent. */
  told?: { position: number; estimateMs: number };
}

/** What the desk needs to know of the server's slots. */
export interface Slots {
  /** Runs going (or cleaning up) now. */
  readonly active: number;
  /** Worker processes of those runs. */
  readonly workers: number;
}

/** An estimate that moved by less than this is not sent again, in ms. */
const ESTIMATE_STEP_MS = 1000;

export class QueueDesk {
  private readonly queue = new RunQueue<Waiting>();
  private readonly recent = new RecentDurations();
  /** When each run going from a page took its slot (performance.now()). */
  private readonly going = new Map<object, number>();
  private readonly waitListeners = new Set<(ms: number) => void>();

  constructor(
    private readonly limits: SocketLimits,
    private readonly slots: Slots,
  ) {}

  /** Starts waiting in line now. */
  get length(): number {
    return this.queue.length;
  }

  /** Places of this page (present) in line. */
  countOf(owner: QueueOwner): number {
    return this.queue.all.filter((p) => p.owner === owner).length;
  }

  /** Places in line from this address. */
  countFrom(address: string): number {
    return this.queue.all.filter((p) => p.address === address).length;
  }

  /** Must a start go in line rather than start now? When slots or workers are short, or others already wait. */
  mustWait(workerCount: number): boolean {
    const { limits, slots } = this;
    return this.queue.length > 0 || slots.active >= limits.maxRunsPerServer || slots.workers + workerCount > limits.maxWorkersPerServer;
  }

  /** Puts a start in line; false when the line is full. */
  enqueue(owner: QueueOwner, place: Omit<Waiting, 'queueKey' | 'enqueuedAtMs' | 'owner'>): boolean {
    if (this.queue.length >= this.limits.maxQueuedPerServer) return false;
    this.queue.add({ ...place, queueKey: randomBytes(16).toString('hex'), enqueuedAtMs: performance.now(), owner });
    this.dispatch();
    return true;
  }

  /** The page leaves the line with this start; false when it has no such place. */
  cancel(owner: QueueOwner, requestId: string): boolean {
    const place = this.queue.all.find((p) => p.owner === owner && p.requestId === requestId);
    if (!place) return false;
    this.drop(place);
    owner.send({ type: 'queue-left', requestId });
    this.dispatch();
    return true;
  }

  /** The page's socket dropped: its places wait `queueGraceMs` for it to come back. */
  away(owner: QueueOwner): void {
    for (const place of this.queue.all.filter((p) => p.owner === owner)) {
      place.owner = null;
      place.told = undefined;
      place.lapse = setTimeout(() => {
        this.drop(place);
        this.dispatch();
      }, this.limits.queueGraceMs);
      place.lapse.unref();
    }
  }

  /** A page back after a reconnect takes its place again; false when there is no such place (lapsed, or another page has it). */
  rejoin(owner: QueueOwner, requestId: string, queueKey: string): boolean {
    const place = this.queue.all.find((p) => p.queueKey === queueKey && p.requestId === requestId && p.owner === null);
    if (!place) return false;
    clearTimeout(place.lapse);
    place.owner = owner;
    owner.adopt(place.pageId);
    this.dispatch();
    return true;
  }

  /** A run of a page took a slot: its slot time counts toward estimates once it settles, and its end serves the line. */
  track(run: { settled: Promise<void> }): void {
    const since = performance.now();
    this.going.set(run, since);
    void run.settled.then(() => {
      this.going.delete(run);
      this.recent.add(performance.now() - since);
      this.dispatch();
    });
  }

  /** Listens to each admitted start's wait in line, in ms; returns the unsubscribe. */
  onWait(listener: (ms: number) => void): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  /** Gives free slots to the line, in order, then tells every page in line where it stands. */
  dispatch(): void {
    for (;;) {
      const { limits, slots } = this;
      if (slots.active >= limits.maxRunsPerServer) break;
      const room = limits.maxWorkersPerServer - slots.workers;
      const next = this.queue.takeNext((p) => p.owner !== null && p.workerCount <= room);
      if (!next) break;
      const waitedMs = performance.now() - next.enqueuedAtMs;
      for (const listener of this.waitListeners) listener(waitedMs);
      next.owner!.admit(next);
    }
    this.tell();
  }

  /** Sends each present page its places' positions and estimates where they changed. */
  private tell(): void {
    const now = performance.now();
    const elapsed = [...this.going.values()].map((since) => now - since);
    const mean = this.recent.meanMs;
    for (const [index, place] of this.queue.order().entries()) {
      if (!place.owner) continue;
      const position = index + 1;
      const estimateMs = estimateWaitMs(index, elapsed, this.limits.maxRunsPerServer, mean);
      const told = place.told;
      if (told && told.position === position && Math.abs(told.estimateMs - estimateMs) < ESTIMATE_STEP_MS) continue;
      place.told = { position, estimateMs };
      place.owner.send({ type: 'run-queued', requestId: place.requestId, position, estimateMs, queueKey: place.queueKey });
    }
  }

  private drop(place: Waiting): void {
    clearTimeout(place.lapse);
    this.queue.remove(place);
  }

  /** Empties the line (the server stops): each present page hears why. */
  close(reason: string): void {
    for (const place of [...this.queue.all]) {
      this.drop(place);
      place.owner?.send({ type: 'run-rejected', requestId: place.requestId, error: reason });
    }
  }
}

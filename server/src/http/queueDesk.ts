// The server's line of run starts (runQueue.ts keeps its fair order): a start that finds every
// run slot taken waits here with its position and an estimate (waitEstimate.ts), sent to its
// page again whenever they change. A slot freed goes to the first place in order whose page is
// here and whose run fits the worker processes left. A page whose socket drops keeps its
// places for `queueGraceMs`: back in time with each place's key (rejoin-queue), it has them
// again; otherwise they lapse. A place whose page is away keeps its position but is skipped.
// With a connection budget (runs/connectionBudget.ts), the first place in order also waits
// until the room's PostgreSQL connections can take its run: its reservation is asked of Redis,
// one at a time, and a budget short of it keeps the whole line where it is (no later start
// overtakes it) until a run here settles or BUDGET_RETRY_MS has passed (a run elsewhere ended).
import { randomBytes } from 'node:crypto';
import type { ServerMessage, ValidClientMessage } from '@racelab/shared';
import type { SocketLimits } from './limits.js';
import { ConnectionBudget } from '../runs/connectionBudget.js';
import { RunQueue, type Place } from './runQueue.js';
import { estimateWaitMs, RecentDurations } from './waitEstimate.js';

/** A page that may hold places in line. */
export interface QueueOwner {
  send(message: ServerMessage): void;
  /** The slot is free: the page starts the run of this place now; the run, or nothing when it could not start. */
  admit(place: Waiting): { settled: Promise<void> } | undefined;
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

/** The connections a run will open, reserved in the room's budget before it takes its slot. */
export interface RunBudget {
  /** False (nothing reserved) when the budget is short of `count`. */
  reserve(count: number): Promise<boolean>;
  release(count: number): void;
  /** Tells `listener` whenever connections were given back; returns the unsubscribe. */
  onFreed(listener: () => void): () => void;
}

/** How often a line held by a short budget asks again, in ms: a run of another server may have ended. */
export const BUDGET_RETRY_MS = 250;

/** An estimate that moved by less than this is not sent again, in ms. */
const ESTIMATE_STEP_MS = 1000;

export class QueueDesk {
  private readonly queue = new RunQueue<Waiting>();
  private readonly recent = new RecentDurations();
  /** When each run going from a page took its slot (performance.now()). */
  private readonly going = new Map<object, number>();
  private readonly waitListeners = new Set<(ms: number) => void>();
  /** The place whose connections are being reserved: nothing else is served meanwhile. */
  private reserving: Waiting | null = null;
  /** Set while the budget is short: the line waits for a run to settle, or for this timer. */
  private short: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly limits: SocketLimits,
    private readonly slots: Slots,
    /** The room's connection budget; none: slots and workers alone decide. */
    private readonly budget?: RunBudget,
  ) {
    this.unsubscribe = budget?.onFreed(() => this.budgetFreed()) ?? (() => undefined);
  }

  /** True when every start goes through the line (its connections are reserved there first). */
  get budgeted(): boolean {
    return this.budget !== undefined;
  }

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

  /** Must a start go in line rather than start now? When slots or workers are short, or others already wait, or connections are reserved there. */
  mustWait(workerCount: number): boolean {
    const { limits, slots } = this;
    return (
      this.budgeted ||
      this.queue.length > 0 ||
      slots.active >= limits.maxRunsPerServer ||
      slots.workers + workerCount > limits.maxWorkersPerServer
    );
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
      if (this.reserving || this.short) break;
      const { limits, slots } = this;
      if (slots.active >= limits.maxRunsPerServer) break;
      const room = limits.maxWorkersPerServer - slots.workers;
      const ready = (p: Waiting): boolean => p.owner !== null && p.workerCount <= room;
      if (this.budget) {
        const first = this.queue.order().find(ready);
        if (first) this.reserveFor(first, this.budget);
        break;
      }
      const next = this.queue.takeNext(ready);
      if (!next) break;
      this.admit(next, 0);
    }
    this.tell();
  }

  /** Reserves the connections of the first place's run; it starts when they fit, else the line waits for the budget. */
  private reserveFor(place: Waiting, budget: RunBudget): void {
    const cost = ConnectionBudget.costOf(place.workerCount);
    this.reserving = place;
    void budget
      .reserve(cost)
      .catch(() => false)
      .then((reserved) => {
        this.reserving = null;
        // Cancelled, lapsed or away meanwhile: what was reserved for it goes back.
        const here = place.owner !== null && this.queue.all.includes(place);
        if (reserved && here) {
          this.queue.takeNext((p) => p === place);
          this.admit(place, cost);
        } else if (reserved) {
          budget.release(cost);
        } else {
          this.short = setTimeout(() => this.budgetFreed(), BUDGET_RETRY_MS);
          this.short.unref();
        }
        this.dispatch();
      });
  }

  /** Reserves a run's connections beside the line (a run that does not wait in it): the release, or null when the budget is short. */
  async reserveAside(workerCount: number): Promise<(() => void) | null> {
    const budget = this.budget;
    if (!budget) return () => undefined;
    const cost = ConnectionBudget.costOf(workerCount);
    if (!(await budget.reserve(cost).catch(() => false))) return null;
    return () => budget.release(cost);
  }

  /** Connections were given back (or it is time to ask again): the line is served. */
  private budgetFreed(): void {
    clearTimeout(this.short);
    this.short = undefined;
    this.dispatch();
  }

  /** The place's page starts its run now; its reserved connections go back once the run has settled (or did not start). */
  private admit(place: Waiting, cost: number): void {
    const waitedMs = performance.now() - place.enqueuedAtMs;
    for (const listener of this.waitListeners) listener(waitedMs);
    const run = place.owner!.admit(place);
    if (!this.budget) return;
    const budget = this.budget;
    if (run) void run.settled.then(() => budget.release(cost));
    else budget.release(cost);
  }

  /** Sends each present page its places' positions and estimates where they changed. */
  private tell(): void {
    const now = performance.now();
    const elapsed = [...this.going.values()].map((since) => now - since);
    const mean = this.recent.meanMs;
    // A start whose connections are being reserved is told only if they turn out short, and
    // stands before no one meanwhile: it leaves the line within a round trip to Redis.
    const leaving = this.reserving && !this.reserving.told ? this.reserving : null;
    const order = this.queue.order().filter((place) => place !== leaving);
    for (const [index, place] of order.entries()) {
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
    clearTimeout(this.short);
    this.unsubscribe();
    for (const place of [...this.queue.all]) {
      this.drop(place);
      place.owner?.send({ type: 'run-rejected', requestId: place.requestId, error: reason });
    }
  }
}

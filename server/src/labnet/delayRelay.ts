// A relay that can be slowed: the proxy that plays a slow lab node where the kernel has no
// netem (or the lab's real faults are off). It passes every connection to its target as
// relay.ts does, and while slowed it holds every chunk, each way, `latencyMs` before it
// passes it on, in order. Loss is played as what it costs a TCP stream, since TCP hides the
// loss itself: a chunk "lost" (with probability lossPercent / 100) is delivered only after
// a retransmission timeout more, RETRANSMISSION_TIMEOUT_MS (Linux's least RTO), and what
// comes after it waits behind it, as a receiver's TCP holds later segments until the lost
// one is sent again. Restored, a chunk passes at once, but never ahead of one still held.
import { monotonicNs } from '../time/clock.js';
import { listenRelay, type Relay } from './relay.js';

/** What a slow adds to a lab node's traffic with one worker. */
export interface Slowdown {
  /** ms added to every chunk, each way. */
  latencyMs: number;
  /** Percent of the chunks "lost" (0 … 100): each costs a retransmission timeout more. */
  lossPercent: number;
}

/** Linux's least retransmission timeout (TCP_RTO_MIN), in ms: what a lost segment costs at best. */
export const RETRANSMISSION_TIMEOUT_MS = 200;

export interface DelayRelay extends Relay {
  /** From now on every chunk, each way, is held as `slowdown` says. */
  slow(slowdown: Slowdown): void;
  /** From now on chunks pass at once (after those still held). */
  restore(): void;
}

const nowMs = (): number => Number(monotonicNs()) / 1e6;

/**
 * One direction of one connection: chunks written in order, each no earlier than its due
 * time. `random` decides which are "lost" (a seeded one makes a test's losses the same every run).
 */
export class DelayLine {
  /** Chunks held, in order, each with the moment it may pass (monotonic ms). */
  private readonly held: Array<{ chunk: Buffer; dueMs: number }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deliver: (chunk: Buffer) => void,
    private readonly random: () => number,
  ) {}

  /** Takes one chunk: passed at once when not slowed and nothing is held, else held to its due time. */
  push(chunk: Buffer, slowdown: Slowdown | null): void {
    if (!slowdown && this.held.length === 0) return this.deliver(chunk);
    const lost = slowdown !== null && this.random() * 100 < slowdown.lossPercent;
    const addedMs = slowdown ? slowdown.latencyMs + (lost ? RETRANSMISSION_TIMEOUT_MS : 0) : 0;
    // Never ahead of the chunk before it: a stream keeps its order.
    const dueMs = Math.max(nowMs() + addedMs, this.held.at(-1)?.dueMs ?? 0);
    this.held.push({ chunk, dueMs });
    if (this.held.length === 1) this.wake();
  }

  /** Drops what is held (the connection is gone). */
  clear(): void {
    clearTimeout(this.timer);
    this.held.length = 0;
  }

  /** Passes every chunk that is due, then sleeps until the next one is (a Node timer may fire early: checked on the clock). */
  private wake(): void {
    while (this.held.length > 0 && this.held[0]!.dueMs <= nowMs()) this.deliver(this.held.shift()!.chunk);
    if (this.held.length > 0) this.timer = setTimeout(() => this.wake(), Math.max(1, Math.ceil(this.held[0]!.dueMs - nowMs())));
  }
}

/**
 * Listens on `listenHost` (a free port) and passes every connection to `target`, held as the
 * relay's slowdown says when there is one. `random` picks the lost chunks (Math.random by default).
 */
export async function startDelayRelay(
  listenHost: string,
  target: { host: string; port: number },
  random: () => number = Math.random,
): Promise<DelayRelay> {
  let slowdown: Slowdown | null = null;
  const relay = await listenRelay(listenHost, target, (inbound, outbound) => {
    const lines = [
      new DelayLine((chunk) => void outbound.write(chunk), random),
      new DelayLine((chunk) => void inbound.write(chunk), random),
    ];
    // What the client writes before the target has answered its connect is buffered by the socket.
    inbound.on('data', (chunk: Buffer) => lines[0]!.push(chunk, slowdown));
    outbound.on('data', (chunk: Buffer) => lines[1]!.push(chunk, slowdown));
    return () => {
      for (const line of lines) line.clear();
    };
  });
  return {
    ...relay,
    slow(next) {
      slowdown = { ...next };
    },
    restore() {
      slowdown = null;
    },
  };
}

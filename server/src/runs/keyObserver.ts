// Ground truth from Redis: what each watched key holds (value and PTTL), reported on
// every change, so the page can set what workers believe beside what is true. Redis's
// keyspace notifications report each SET, DEL and expiry as it happens; sampling keeps
// the TTL current and covers a Redis that does not notify.
import type { Redis } from 'ioredis';
import { LUA_VALUE_OF } from '../scenarios/keyValue.js';
import type { KeyspaceEvents } from './keyspaceEvents.js';
import { SamplingLoop } from './samplingLoop.js';

export interface KeyObservation {
  key: string;
  value: string | null;
  /** As Redis reports it: -1 no expiry, -2 no key. */
  pttlMs: number;
  /**
   * Redis's own clock (TIME, µs since the epoch) when it read the key, in the same atomic
   * step; absent for a key a notification reported gone. The host's wall clock.
   */
  redisTimeUs?: number;
  /** How the key went, when a notification told: a DEL, its expiry, an eviction. */
  gone?: KeyGone;
}

export type KeyGone = 'deleted' | 'expired' | 'evicted';

/** A keyspace notification's event for a key that went, in the observation's words. */
const GONE_BY: Record<string, KeyGone> = { del: 'deleted', expired: 'expired', evicted: 'evicted' };

// Each key's value (as the timeline shows it: ../scenarios/keyValue.ts) and its PTTL; then
// Redis's TIME (seconds, microseconds) of the snapshot.
const READ_KEYS = `${LUA_VALUE_OF}
local out = {}
for i, key in ipairs(KEYS) do
  out[2 * i - 1] = valueOf(key)
  out[2 * i] = redis.call('PTTL', key)
end
local now = redis.call('TIME')
out[2 * #KEYS + 1] = now[1]
out[2 * #KEYS + 2] = now[2]
return out`;

/** How often keys are sampled, in ms: without notifications, changes show this late at most. */
export const SAMPLE_EVERY_MS = 5;

/** When Redis answered a sample: it read the key somewhere between sentAt and receivedAt (performance.now()). */
interface Sampled {
  sentAt: number;
  receivedAt: number;
}

// PTTL is whole milliseconds, so two readings may be off by one.
const PTTL_ROUNDING_MS = 1;

export class KeyObserver {
  private readonly last = new Map<string, KeyObservation & Partial<Sampled>>();
  /** Keys reported gone by a sample, before Redis's notification said how: its word is news. */
  private readonly wentUntold = new Set<string>();
  private readonly sampling: SamplingLoop;
  // Samples and notifications are applied one at a time, in the order they came.
  private queue: Promise<void> = Promise.resolve();
  private readonly unlisten: () => void;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly keys: string[],
    private readonly onChange: (o: KeyObservation, previous: KeyObservation | undefined) => void,
    private readonly onError: (error: Error) => void,
    notifications?: KeyspaceEvents | null,
    /**
     * A watched key went from a value to no key: seen so by two samples, or told by Redis (a
     * DEL or an expiry is notified only for a key that existed, so it counts even when no
     * sample caught the value: a server starved for the key's whole life would otherwise never
     * call it gone, and a worker waiting for that would wait to the run's deadline).
     */
    private readonly onGone: (key: string) => void = () => undefined,
  ) {
    this.unlisten = notifications?.listen(prefix, (key, event) => this.notified(key, event)) ?? (() => undefined);
    this.sampling = new SamplingLoop(SAMPLE_EVERY_MS, () => this.serial(() => this.sample()), onError);
  }

  /** Takes one last sample and stops. */
  async stop(): Promise<void> {
    this.unlisten();
    await this.sampling.stop();
    await this.serial(() => this.sample()).catch(() => undefined);
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private notified(key: string, event: string): void {
    if (!this.sampling.running || !this.keys.includes(key)) return;
    // A key that is gone is known to be gone, and how; after any other change, ask Redis what it holds.
    const gone = GONE_BY[event];
    void this.serial(async () => (gone ? this.report({ key, value: null, pttlMs: -2, gone }, undefined, true) : this.sample())).catch(
      (error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private async sample(): Promise<void> {
    if (this.keys.length === 0) return;
    const keys = this.keys.map((k) => this.prefix + k);
    // One script reads every key whatever its type, in one atomic snapshot.
    const sentAt = performance.now();
    const replies = (await this.redis.eval(READ_KEYS, keys.length, ...keys)) as Array<string | null | number>;
    const when = { sentAt, receivedAt: performance.now() };
    const redisTimeUs = Number(replies[2 * keys.length]) * 1_000_000 + Number(replies[2 * keys.length + 1]);
    this.keys.forEach((key, i) => {
      const value = (replies[2 * i] as string | null) ?? null;
      this.report({ key, value, pttlMs: Number(replies[2 * i + 1]), redisTimeUs }, when);
    });
  }

  /** `removed`: Redis said the key was deleted or expired. */
  private report(now: KeyObservation, when?: Sampled, removed = false): void {
    const before = this.last.get(now.key);
    const gone = now.value === null && (removed || (before !== undefined && before.value !== null));
    // A TTL counting down is not news; a new value, a new lease or a lost expiry is, and so is
    // how a key went when a sample saw it gone before Redis's notification said how.
    const changed =
      !before ||
      before.value !== now.value ||
      (before.pttlMs === -1) !== (now.pttlMs === -1) ||
      renewed(before, now, when) ||
      (now.gone !== undefined && this.wentUntold.has(now.key));
    if (changed) {
      this.last.set(now.key, { ...now, ...when });
      if (before || now.value !== null) this.onChange(now, before);
      if (now.value === null && now.gone === undefined && before?.value != null) this.wentUntold.add(now.key);
      else this.wentUntold.delete(now.key);
    }
    if (gone) this.onGone(now.key);
  }
}

/**
 * Did the key get a new expiry between two samples? Counting down, its PTTL can be at most
 * what it was less the time that surely passed between the two readings (from the earlier
 * answer to the later request); more than that, and someone renewed the lease — even to
 * the same length, as a watchdog does.
 */
function renewed(before: KeyObservation & Partial<Sampled>, now: KeyObservation, when: Sampled | undefined): boolean {
  if (now.pttlMs < 0 || before.pttlMs < 0) return false;
  const surelyPassed = when && before.receivedAt !== undefined ? Math.max(0, when.sentAt - before.receivedAt) : 0;
  return now.pttlMs > before.pttlMs - surelyPassed + PTTL_ROUNDING_MS;
}

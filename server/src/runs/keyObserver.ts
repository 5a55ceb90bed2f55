// Ground truth from Redis: samples what each watched key holds (value and PTTL) and
// reports every change, so the page can set what workers believe beside what is true.
import type { Redis } from 'ioredis';

export interface KeyObservation {
  key: string;
  value: string | null;
  /** As Redis reports it: -1 no expiry, -2 no key. */
  pttlMs: number;
}

/** How often keys are sampled, in ms: expiries show on the timeline this late at most. */
export const SAMPLE_EVERY_MS = 5;

export class KeyObserver {
  private readonly last = new Map<string, KeyObservation>();
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly keys: string[],
    private readonly onChange: (o: KeyObservation, previous: KeyObservation | undefined) => void,
    private readonly onError: (error: Error) => void,
  ) {
    this.loop = this.run();
  }

  /** Takes one last sample and stops. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.sample().catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.sample();
      } catch (error) {
        this.running = false;
        this.onError(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  }

  private async sample(): Promise<void> {
    if (this.keys.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const key of this.keys) pipeline.get(this.prefix + key).pttl(this.prefix + key);
    const replies = (await pipeline.exec()) ?? [];
    this.keys.forEach((key, i) => {
      const [getError, value] = replies[2 * i] ?? [];
      const [pttlError, pttl] = replies[2 * i + 1] ?? [];
      if (getError || pttlError) throw getError ?? pttlError;
      const now: KeyObservation = { key, value: (value as string | null) ?? null, pttlMs: Number(pttl) };
      const before = this.last.get(key);
      // A TTL counting down is not news; a new value, a new lease or a lost expiry is.
      const changed =
        !before ||
        before.value !== now.value ||
        (before.pttlMs === -1) !== (now.pttlMs === -1) ||
        now.pttlMs > before.pttlMs;
      if (!changed) return;
      this.last.set(key, now);
      if (before || now.value !== null) this.onChange(now, before);
    });
  }
}

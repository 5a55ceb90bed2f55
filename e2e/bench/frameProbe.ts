// Frame pacing while a benchmark drives the page, measured in the page: the interval
// between requestAnimationFrame timestamps (at 60 Hz it cannot go below 16.7 ms; a long one
// is a dropped frame), and the time from the first input handled since the last frame to
// the end of that frame (a message posted from inside the rAF callback runs once the
// frame's script, style, layout and paint are done): a latency, idle wait included.
// The main thread's work per frame comes from Chromium's own trace (traceSummary.ts): a
// timestamp taken in the page cannot tell work from the wait to be scheduled.
import type { Page } from '@playwright/test';

export interface FrameSample {
  intervalMs: number;
  /** From the first input handled since the last frame (any kind) to the frame's end; NaN without input. */
  fromInputMs: number;
}

export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = {
      on: true,
      /** First input of any kind since the last frame. */
      inputAt: null as number | null,
      last: null as number | null,
      frames: [] as { intervalMs: number; fromInputMs: number }[],
    };
    const onInput = () => {
      if (probe.on) probe.inputAt ??= performance.now();
    };
    for (const type of ['wheel', 'pointermove', 'pointerdown', 'pointerup', 'keydown'])
      addEventListener(type, onInput, { capture: true, passive: true });
    const channel = new MessageChannel();
    const starts: { start: number; inputAt: number | null; intervalMs: number }[] = [];
    channel.port1.onmessage = () => {
      const frame = starts.shift();
      if (!frame) return;
      const end = performance.now();
      probe.frames.push({
        intervalMs: frame.intervalMs,
        fromInputMs: frame.inputAt === null ? Number.NaN : end - Math.min(frame.inputAt, frame.start),
      });
    };
    const loop = (ts: number) => {
      if (!probe.on) return;
      requestAnimationFrame(loop);
      starts.push({ start: ts, inputAt: probe.inputAt, intervalMs: probe.last === null ? Number.NaN : ts - probe.last });
      probe.last = ts;
      probe.inputAt = null;
      channel.port2.postMessage(0);
    };
    requestAnimationFrame(loop);
    (window as unknown as { __frames: typeof probe }).__frames = probe;
  });
}

export async function stopFrames(page: Page): Promise<FrameSample[]> {
  await page.waitForTimeout(100); // the last frame's message
  return page.evaluate(() => {
    const probe = (window as unknown as { __frames: { on: boolean; frames: { intervalMs: number; fromInputMs: number }[] } }).__frames;
    probe.on = false;
    return probe.frames;
  });
}

/** Resolves once `quietFrames` rAF intervals in a row were under 50 ms, or after `timeoutMs`; the ms it took. */
export async function waitUntilSettled(page: Page, timeoutMs: number, quietFrames = 30): Promise<number> {
  return page.evaluate(
    ({ timeoutMs, quietFrames }) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        let last = t0;
        let quiet = 0;
        const loop = (ts: number) => {
          quiet = ts - last < 50 ? quiet + 1 : 0;
          last = ts;
          if (quiet >= quietFrames || ts - t0 > timeoutMs) resolve(performance.now() - t0);
          else requestAnimationFrame(loop);
        };
        requestAnimationFrame(loop);
      }),
    { timeoutMs, quietFrames },
  );
}

// Per-frame main-thread work while a benchmark drives the page, measured in the page:
// a frame starts at its requestAnimationFrame timestamp, or earlier at the first input
// event handled since the last frame (input is dispatched just before rAF); it ends when
// a message posted from inside the rAF callback runs, i.e. once the frame's script,
// style, layout and paint are done on the main thread. rAF intervals are kept too (at
// 60 Hz they cannot go below 16.7 ms; a long one is a dropped frame).
import type { Page } from '@playwright/test';

export interface FrameSample {
  workMs: number;
  intervalMs: number;
}

export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = { on: true, inputAt: null as number | null, last: null as number | null, frames: [] as { workMs: number; intervalMs: number }[] };
    const onInput = () => {
      if (probe.on && probe.inputAt === null) probe.inputAt = performance.now();
    };
    for (const type of ['wheel', 'pointerdown', 'pointermove', 'pointerup', 'keydown']) {
      addEventListener(type, onInput, { capture: true, passive: true });
    }
    const channel = new MessageChannel();
    const starts: { start: number; intervalMs: number }[] = [];
    channel.port1.onmessage = () => {
      const frame = starts.shift();
      if (frame) probe.frames.push({ workMs: performance.now() - frame.start, intervalMs: frame.intervalMs });
    };
    const loop = (ts: number) => {
      if (!probe.on) return;
      const start = Math.min(ts, probe.inputAt ?? ts);
      starts.push({ start, intervalMs: probe.last === null ? Number.NaN : ts - probe.last });
      probe.last = ts;
      probe.inputAt = null;
      channel.port2.postMessage(0);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    (window as unknown as { __frames: typeof probe }).__frames = probe;
  });
}

export async function stopFrames(page: Page): Promise<FrameSample[]> {
  await page.waitForTimeout(100); // the last frame's message
  return page.evaluate(() => {
    const probe = (window as unknown as { __frames: { on: boolean; frames: { workMs: number; intervalMs: number }[] } }).__frames;
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

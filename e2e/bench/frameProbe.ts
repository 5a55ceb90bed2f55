// Per-frame main-thread work while a benchmark drives the page, measured in the page:
// a frame starts at its requestAnimationFrame timestamp, or earlier at the first wheel or
// pointer move handled since the last frame (Chromium dispatches those just before rAF);
// it ends when a message posted from inside the rAF callback runs, i.e. once the frame's
// script, style, layout and paint are done on the main thread. Keys and pointer presses
// are dispatched as soon as they come, often well before the next frame: the wait until
// that frame is idle, so what counts for them is their handling, from the first listener
// to the end of the event's task, added to the frame that follows. The time from such an
// input to the end of its frame (a latency, idle wait included) is kept apart as
// fromInputMs. rAF intervals are kept too (at 60 Hz they cannot go below 16.7 ms; a long
// one is a dropped frame).
import type { Page } from '@playwright/test';

export interface FrameSample {
  workMs: number;
  intervalMs: number;
  /** From the first input handled since the last frame (any kind) to the frame's end; NaN without input. */
  fromInputMs: number;
}

export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = {
      on: true,
      /** First wheel or pointer move since the last frame (dispatched just before it). */
      alignedAt: null as number | null,
      /** First input of any kind since the last frame. */
      inputAt: null as number | null,
      /** Handling time of key and pointer presses since the last frame, ms. */
      pressesMs: 0,
      last: null as number | null,
      frames: [] as { workMs: number; intervalMs: number; fromInputMs: number }[],
    };
    const onAligned = () => {
      if (!probe.on) return;
      probe.alignedAt ??= performance.now();
      probe.inputAt ??= probe.alignedAt;
    };
    // A message posted from the first listener runs once the event's task is done.
    const pressDone = new MessageChannel();
    const pressStarts: number[] = [];
    pressDone.port1.onmessage = () => {
      const at = pressStarts.shift();
      if (at !== undefined && probe.on) probe.pressesMs += performance.now() - at;
    };
    const onPress = () => {
      if (!probe.on) return;
      const now = performance.now();
      probe.inputAt ??= now;
      pressStarts.push(now);
      pressDone.port2.postMessage(0);
    };
    for (const type of ['wheel', 'pointermove']) addEventListener(type, onAligned, { capture: true, passive: true });
    for (const type of ['pointerdown', 'pointerup', 'keydown']) addEventListener(type, onPress, { capture: true, passive: true });
    const channel = new MessageChannel();
    const starts: { start: number; inputAt: number | null; pressesMs: number; intervalMs: number }[] = [];
    channel.port1.onmessage = () => {
      const frame = starts.shift();
      if (!frame) return;
      const end = performance.now();
      probe.frames.push({
        workMs: end - frame.start + frame.pressesMs,
        intervalMs: frame.intervalMs,
        fromInputMs: frame.inputAt === null ? Number.NaN : end - Math.min(frame.inputAt, frame.start),
      });
    };
    const loop = (ts: number) => {
      if (!probe.on) return;
      const start = Math.min(ts, probe.alignedAt ?? ts);
      starts.push({ start, inputAt: probe.inputAt, pressesMs: probe.pressesMs, intervalMs: probe.last === null ? Number.NaN : ts - probe.last });
      probe.last = ts;
      probe.alignedAt = null;
      probe.inputAt = null;
      probe.pressesMs = 0;
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
    const probe = (window as unknown as { __frames: { on: boolean; frames: { workMs: number; intervalMs: number; fromInputMs: number }[] } }).__frames;
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

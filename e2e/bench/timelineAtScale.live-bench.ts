// Timeline at scale: a run of 50,000 events loaded into the page, then frame work while
// panning and zooming the Timeline, and the page's memory with that run loaded. The run is
// loaded the way the page allows: its "Open recording" file input when it has one (a
// generated recording of the bench emitter's lock cycles), else through its own socket,
// as a live run of the bench emitter (worker processes emitting the same lock cycles).
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { ScenarioManifest } from '@racelab/shared';
import { openBenchPage, percentile, saveResult, setParams } from './benchPage.js';
import { generatedRecording } from './generatedRun.js';
import { startProfile, stopProfile, type HotSpot } from './cpuProfile.js';
import { startFrames, stopFrames, waitUntilSettled, type FrameSample } from './frameProbe.js';
import { startTrace, stopTrace, type TraceLine, type TraceSummary } from './traceSummary.js';

const EVENTS = Number(process.env.BENCH_SCALE_EVENTS ?? 50_000);
const RATE = Number(process.env.BENCH_SCALE_RATE ?? 10_000);
const LOAD_TIMEOUT_MS = Number(process.env.BENCH_SCALE_TIMEOUT_MS ?? 120_000);
/** A load still going this long before its timeout is traced for the rest, to say what limits it. */
const TRACE_LAST_MS = 10_000;
/** Frame work the issue allows while panning and zooming, p95, ms. */
const FRAME_BUDGET_MS = 8;
/** Set: profile the page's main thread for the first PROFILE_MS of the load (meant for an unminified build). */
const PROFILE = process.env.BENCH_PROFILE === '1';
const PROFILE_MS = 20_000;

/**
 * What the Timeline shows where: the names of its images (the time axis names the visible
 * window), its first marks' horizontal positions and a digest of its canvases. Changes when
 * the view pans or zooms, even deep in a zoom where no mark is in view.
 */
async function markSignature(page: Page): Promise<string> {
  return page.evaluate(() => {
    const title = Array.from(document.querySelectorAll('h2, h3')).find((h) => h.textContent?.trim() === 'Timeline');
    const region = (title?.id && document.querySelector(`[aria-labelledby="${title.id}"]`)) || document.body;
    const marks = Array.from(region.querySelectorAll('[role="img"]')).slice(0, 30);
    const positions = marks.map((m) => `${m.getAttribute('aria-label')}@${Math.round(m.getBoundingClientRect().left)}`).join(',');
    const canvases = Array.from(region.querySelectorAll('canvas')).map((c) => {
      const data = c.toDataURL();
      let h = 0;
      for (let i = 0; i < data.length; i += 7) h = (h * 31 + data.charCodeAt(i)) | 0;
      return h;
    });
    return `${positions}|${canvases.join(',')}`;
  });
}

/** Frame pacing from the page's probe, the main thread's work per frame from the trace. */
const frameSummary = (frames: FrameSample[], trace: TraceSummary) => {
  const work = trace.frameWorkMs;
  const intervals = frames.map((f) => f.intervalMs).filter(Number.isFinite);
  const fromInput = frames.map((f) => f.fromInputMs).filter(Number.isFinite);
  return {
    frames: work.length,
    workP50: percentile(work, 50),
    workP95: percentile(work, 95),
    workMax: percentile(work, 100),
    /** The same on the main thread's CPU clock (time descheduled left out). */
    cpuP95: percentile(trace.frameCpuMs, 95),
    intervalP95: percentile(intervals, 95),
    /** Input to the end of its frame, idle wait included: a latency, not work. */
    fromInputP95: percentile(fromInput, 95),
    work,
  };
};

test('timeline at scale', async ({ browser, page, request }) => {
  await openBenchPage(page);
  const fileInput = page.getByLabel('Open recording');
  const viaRecording = (await fileInput.count()) > 0;
  let recording = '';
  if (viaRecording) {
    const [manifest] = (await (await request.get('/api/catalog')).json()) as ScenarioManifest[];
    recording = generatedRecording(manifest!, EVENTS, 4, RATE);
  } else {
    await setParams(page, { workers: 4, events: EVENTS, rate: RATE, mode: 'mix' });
  }
  const cdpProfile = PROFILE ? await startProfile(page) : null;
  const clickedAt = Date.now();
  if (viaRecording) await fileInput.setInputFiles({ name: 'bench-50k.json', mimeType: 'application/json', buffer: Buffer.from(recording) });
  else await page.getByRole('button', { name: 'Run', exact: true }).click();
  const headline = page.getByRole('region', { name: 'Verdict' }).getByRole('status');
  let loadProfile: HotSpot[] | null = null;
  if (cdpProfile) {
    await page.waitForTimeout(PROFILE_MS);
    loadProfile = await stopProfile(cdpProfile, 25);
  }
  const verdictShown = async (ms: number) => {
    try {
      await expect(headline).toHaveText(/^(PASS|FAIL|ERROR)/, { timeout: Math.max(1000, ms) });
      return true;
    } catch {
      return false;
    }
  };
  let loadTrace: TraceLine[] | null = null;
  let loaded = await verdictShown(LOAD_TIMEOUT_MS - TRACE_LAST_MS - (Date.now() - clickedAt));
  if (!loaded) {
    await startTrace(browser, page);
    loaded = await verdictShown(TRACE_LAST_MS);
    loadTrace = (await stopTrace(browser)).lines;
  }
  const verdictMs = Date.now() - clickedAt;
  const settleMs = loaded ? await waitUntilSettled(page, 60_000) : Number.NaN;
  const loadMs = Date.now() - clickedAt;
  const headlineText = (await headline.textContent()) ?? '';

  // Memory with the run loaded: JS heap after a full GC, DOM nodes, the renderer's RSS.
  // A page still busy loading may not answer the main-thread calls: each gets 10 s.
  const within = <T>(p: Promise<T>, fallback: T): Promise<T> =>
    Promise.race([p, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), 10_000))]);
  const cdp = await page.context().newCDPSession(page);
  await within(cdp.send('HeapProfiler.collectGarbage'), undefined);
  await within(cdp.send('Performance.enable'), undefined);
  const { metrics } = await within(cdp.send('Performance.getMetrics') as Promise<{ metrics: { name: string; value: number }[] }>, {
    metrics: [],
  });
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  const browserCdp = await browser.newBrowserCDPSession();
  const info = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  const rss = (pid: number) => {
    try {
      return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) * 1024;
    } catch {
      return Number.NaN;
    }
  };
  const rendererRssBytes = Math.max(...info.processInfo.filter((p) => p.type === 'renderer').map((p) => rss(p.id)));
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const markCount = await within(timeline.getByRole('img').count(), Number.NaN);

  // Panning and zooming: whatever the Timeline offers. Zoom buttons or a slider if it has
  // them, else the usual gestures over it: Ctrl+wheel to zoom, Shift+wheel and a drag to pan.
  const gestures: Record<string, { moved: boolean; frames: ReturnType<typeof frameSummary>; trace: TraceLine[] | null }> = {};
  // Wheel and drag act where the pointer is: over the middle of the first worker's lane,
  // measured again before each gesture (a click on a button moves the pointer there, and
  // a wheel over anything but the lanes scrolls the page instead of zooming).
  const lane = timeline.getByRole('group', { name: /^worker-\d+$/ }).first();
  const overLanes = async () => {
    await lane.scrollIntoViewIfNeeded();
    const box = await lane.boundingBox();
    if (!box) return null;
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(at.x, at.y);
    return at;
  };
  if (loaded && (await overLanes())) {
    const gesture = async (name: string, act: (at: { x: number; y: number }) => Promise<void>) => {
      const at = (await overLanes())!;
      const before = await markSignature(page);
      await startTrace(browser, page);
      await startFrames(page);
      await act(at);
      const frames = await stopFrames(page);
      const traced = await stopTrace(browser);
      const summary = frameSummary(frames, traced);
      const moved = (await markSignature(page)) !== before;
      // Over budget: where the main thread's time went.
      gestures[name] = { moved, frames: summary, trace: summary.workP95 > FRAME_BUDGET_MS ? traced.lines : null };
    };
    // Clicks and key presses go straight to the browser's input (page.mouse, page.keyboard),
    // as a person's do: a locator's click or press would first run Playwright's own
    // checks in the page (hit tests, layout reads), and that work would count as the page's.
    const zoomButton = timeline.getByRole('button', { name: /zoom in/i });
    const zoomBox = (await zoomButton.count()) > 0 ? await zoomButton.first().boundingBox() : null;
    if (zoomBox) {
      await gesture('zoom (buttons)', async () => {
        for (let i = 0; i < 10; i++) {
          await page.mouse.click(zoomBox.x + zoomBox.width / 2, zoomBox.y + zoomBox.height / 2);
          await page.waitForTimeout(50);
        }
      });
    }
    await gesture('zoom (wheel)', async () => {
      for (let i = 0; i < 60; i++) {
        await page.mouse.wheel(0, i < 30 ? -120 : 120);
        await page.waitForTimeout(16);
      }
    });
    await gesture('zoom (ctrl+wheel)', async () => {
      await page.keyboard.down('Control');
      for (let i = 0; i < 40; i++) {
        await page.mouse.wheel(0, -60);
        await page.waitForTimeout(16);
      }
      await page.keyboard.up('Control');
    });
    await gesture('pan (shift+wheel)', async () => {
      await page.keyboard.down('Shift');
      for (let i = 0; i < 40; i++) {
        await page.mouse.wheel(0, 60);
        await page.waitForTimeout(16);
      }
      await page.keyboard.up('Shift');
    });
    await gesture('pan (drag)', async (at) => {
      await page.mouse.down();
      for (let i = 0; i < 40; i++) {
        await page.mouse.move(at.x - i * 8, at.y);
        await page.waitForTimeout(16);
      }
      await page.mouse.up();
    });
    // Keys go to the page, not to a control that has the focus (the zoom button, after its gesture).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await gesture('zoom and pan (keys + → −)', async () => {
      for (const key of [...Array<string>(6).fill('+'), ...Array<string>(12).fill('ArrowRight'), ...Array<string>(6).fill('-')]) {
        await page.keyboard.press(key);
        await page.waitForTimeout(30);
      }
    });
  }

  saveResult(PROFILE ? 'timelineAtScale.profile' : 'timelineAtScale', {
    loadProfile,
    loadTrace,
    timeoutMs: LOAD_TIMEOUT_MS,
    events: EVENTS,
    rate: RATE,
    loadedVia: viaRecording ? 'recording file' : 'live run over the socket',
    loaded,
    headline: headlineText,
    verdictMs,
    settleMs,
    loadMs,
    memory: {
      jsHeapUsedBytes: metric('JSHeapUsedSize'),
      jsHeapTotalBytes: metric('JSHeapTotalSize'),
      domNodes: metric('Nodes'),
      rendererRssBytes,
    },
    markCount,
    gestures,
  });
});

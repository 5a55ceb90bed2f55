// The static site's first screen on a throttled connection: the site (npm run site's folder,
// BENCH_SITE_DIR) served under a sub-path by a plain static server that gzips text as static
// hosts do, opened in a fresh browser context each time (nothing cached) with the network
// held to BENCH_SITE_KBPS down and BENCH_SITE_RTT_MS of latency by CDP's
// Network.emulateNetworkConditions. For each load: the time from navigation to the first
// frame that draws a mark of the first recording in the timeline, the first contentful
// paint, and every response finished by then (bytes on the wire, by kind): what the first
// screen took. Writes
// siteFirstScreen.json for the runner (tools/src/bench/siteFirstScreen.ts); asserts nothing.
import { expect, test, type CDPSession } from '@playwright/test';
import { saveResult } from './benchPage.js';
import { startStaticServer } from '../tests/staticServer.js';

const SITE = process.env.BENCH_SITE_DIR;
const REPS = Number(process.env.BENCH_SITE_REPS ?? 5);
/** Lighthouse's and WebPageTest's "fast 3G": 1.6 Mbps down, 750 kbps up, 150 ms round trip. */
const DOWN_KBPS = Number(process.env.BENCH_SITE_KBPS ?? 1600);
const UP_KBPS = 750;
const RTT_MS = Number(process.env.BENCH_SITE_RTT_MS ?? 150);

interface Response {
  url: string;
  kind: string;
  bytes: number;
}

export interface SiteLoad {
  firstDrawMs: number;
  firstPaintMs: number | null;
  /** When the last response the page had asked for by its first draw ended (resource timing). */
  lastByteMs: number;
  responses: Response[];
}

/** Runs in the page before its own script: the first animation frame with a mark of a run in the Timeline. */
function probeFirstDraw() {
  const w = window as unknown as { firstDrawMs?: number; lastByteMs?: number };
  const look = (now: number) => {
    if (!document.querySelector('.timeline [data-mark]')) return void requestAnimationFrame(look);
    w.firstDrawMs = now;
    // The responses the page had by then: the last byte of what the first screen took.
    w.lastByteMs = Math.max(0, ...performance.getEntriesByType('resource').map((e) => (e as PerformanceResourceTiming).responseEnd));
  };
  requestAnimationFrame(look);
}

/** Every response that finishes, with its bytes on the wire (headers and encoded body). */
function watchResponses(cdp: CDPSession): Response[] {
  const seen = new Map<string, { url: string; kind: string }>();
  const done: Response[] = [];
  cdp.on('Network.responseReceived', (e) => seen.set(e.requestId, { url: e.response.url, kind: kindOf(e.response.url) }));
  cdp.on('Network.loadingFinished', (e) => {
    const r = seen.get(e.requestId);
    if (r) done.push({ ...r, bytes: e.encodedDataLength });
  });
  return done;
}

const kindOf = (url: string): string => {
  const path = new URL(url).pathname;
  if (path.endsWith('.js')) return 'js';
  if (path.endsWith('.css')) return 'css';
  if (path.endsWith('/catalog.json')) return 'catalog';
  if (path.endsWith('.json')) return 'recording';
  return 'html';
};

test('the static site: first screen on a throttled connection', async ({ browser }) => {
  // Refused, not skipped: a bench with nothing to measure must not look like one that measured.
  if (!SITE) throw new Error('BENCH_SITE_DIR must name the folder npm run site wrote (npm run bench sets it)');
  test.setTimeout(60_000 + REPS * 60_000);
  const server = await startStaticServer(SITE, { base: '/racelab/', gzip: true });
  const loads: SiteLoad[] = [];
  try {
    for (let i = 0; i < REPS; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: RTT_MS,
        downloadThroughput: (DOWN_KBPS * 1000) / 8,
        uploadThroughput: (UP_KBPS * 1000) / 8,
      });
      const responses = watchResponses(cdp);
      await page.addInitScript(probeFirstDraw);
      await page.goto(server.pageUrl, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { firstDrawMs?: number }).firstDrawMs !== undefined, null, {
        timeout: 60_000,
        polling: 100,
      });
      const atFirstDraw = [...responses];
      const timing = await page.evaluate(() => ({
        firstDrawMs: (window as unknown as { firstDrawMs: number }).firstDrawMs,
        firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        lastByteMs: (window as unknown as { lastByteMs: number }).lastByteMs,
      }));
      // The first screen is whole: the verdict of the recording drawn.
      await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^(PASS|FAIL)/);
      loads.push({ ...timing, responses: atFirstDraw });
      await context.close();
    }
  } finally {
    await server.close();
  }
  saveResult('siteFirstScreen', { downKbps: DOWN_KBPS, upKbps: UP_KBPS, rttMs: RTT_MS, loads });
});

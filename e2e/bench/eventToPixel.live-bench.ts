// Event to pixel: from a worker's emit (its atMs on the host-wide monotonic clock, turned
// into the bench server's wall clock) to the frame in Chromium that renders the event's
// mark, with the page's clock lined up to the server's (clockOffset). Events are notes
// "#i" from worker processes of the bench emitter at a fixed total rate; every one must
// become a mark (role=img, named "… note at … ms: #i") in the Timeline region.
import { test } from '@playwright/test';
import { clockOffset, openBenchPage, percentile, runToVerdict, saveResult, setParams } from './benchPage.js';
import { startProfile, stopProfile, type HotSpot } from './cpuProfile.js';
import { installMarkProbe, type ProbeState } from './markProbe.js';
import { startTrace, stopTrace, type TraceLine } from './traceSummary.js';

const RATE = Number(process.env.BENCH_E2P_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_E2P_SECONDS ?? 3);
const REPS = Number(process.env.BENCH_E2P_REPS ?? 3);
/** Set: one more run with the page's main thread profiled (meant for an unminified build). */
const PROFILE = process.env.BENCH_PROFILE === '1';

interface LastRun {
  startWallMs: number;
  verdict: string;
  notes: { text: string; atMs: number; appendedWallMs: number }[];
}

test('event to pixel', async ({ browser, page, request }) => {
  await page.addInitScript(installMarkProbe);
  await openBenchPage(page);
  await setParams(page, { workers: 4, events: RATE * SECONDS, rate: RATE, mode: 'marks' });
  const reps = [];
  let profile: HotSpot[] | null = null;
  let trace: TraceLine[] | null = null;
  for (let rep = 0; rep < REPS + (PROFILE ? 1 : 0); rep++) {
    const profiling = PROFILE && rep === REPS;
    const clock = await clockOffset(page);
    await page.evaluate(() => (window as unknown as { __markProbe: { take(): unknown } }).__markProbe.take()); // forget the last run
    // The JS profile and the trace are two passes: a trace of JS samples would be huge.
    const cdp = profiling ? await startProfile(page) : null;
    const headline = await runToVerdict(page, 120_000);
    await page.waitForTimeout(1000); // the last marks' frames and fade-ins
    if (cdp) {
      profile = await stopProfile(cdp, 25);
      await startTrace(browser, page);
      await runToVerdict(page, 120_000);
      await page.waitForTimeout(1000);
      trace = (await stopTrace(browser)).lines;
      continue;
    }
    const probe = (await page.evaluate(() => (window as unknown as { __markProbe: { take(): unknown } }).__markProbe.take())) as ProbeState;
    const run = (await (await request.get('/bench/last-run')).json()) as LastRun;
    const byIndex = new Map(probe.marks.map((m) => [m.i, m]));
    const toServer = (pageMs: number) => pageMs + clock.offsetMs;
    const lat = { ipc: [] as number[], socket: [] as number[], page: [] as number[], frame: [] as number[], visible: [] as number[] };
    let missing = 0;
    for (const note of run.notes) {
      const emitMs = run.startWallMs + note.atMs;
      const mark = byIndex.get(Number(note.text.slice(1)));
      lat.ipc.push(note.appendedWallMs - emitMs);
      if (!mark || !Number.isFinite(mark.frameMs)) {
        missing++;
        continue;
      }
      if (Number.isFinite(mark.receivedMs)) {
        lat.socket.push(toServer(mark.receivedMs) - note.appendedWallMs);
        lat.page.push(mark.frameMs - mark.receivedMs);
      }
      lat.frame.push(toServer(mark.frameMs) - emitMs);
      if (Number.isFinite(mark.visibleMs)) lat.visible.push(toServer(mark.visibleMs) - emitMs);
    }
    const summary = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: percentile(xs, 100) });
    reps.push({
      headline,
      verdict: run.verdict,
      events: run.notes.length,
      missing,
      inTimeline: probe.inTimeline,
      clock,
      emitToFrame: summary(lat.frame),
      emitToVisible: summary(lat.visible),
      emitToAppend: summary(lat.ipc),
      appendToReceived: summary(lat.socket),
      receivedToFrame: summary(lat.page),
      // Latency over the run, by second: does it grow as marks pile up?
      p99BySecond: Array.from({ length: SECONDS }, (_, s) =>
        percentile(
          run.notes
            .filter((n) => n.atMs >= s * 1000 && n.atMs < (s + 1) * 1000)
            .map((n) => byIndex.get(Number(n.text.slice(1))))
            .filter((m) => m && Number.isFinite(m.frameMs))
            .map((m) => toServer(m!.frameMs) - (run.startWallMs + run.notes.find((x) => x.text === `#${m!.i}`)!.atMs)),
          99,
        ),
      ),
      samples: lat.frame,
    });
  }
  saveResult(PROFILE ? 'eventToPixel.profile' : 'eventToPixel', { rate: RATE, seconds: SECONDS, reps, profile, trace });
});

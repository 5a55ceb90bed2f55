// Event to pixel: from a worker's emit (its atMs on the host-wide monotonic clock, turned
// into the bench server's wall clock) to the frame in Chromium that renders the event,
// with the page's clock lined up to the server's (clockOffset). Events are notes
// "#i" from worker processes of the bench emitter at a fixed total rate; each is drawn as
// its own mark or, once its lane holds more marks than fit, counted by a cluster of them
// (markProbe.ts sees both). The second test plays the same stream to a bare page
// (barePage.ts): the floor this machine sets for any page.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { cpuSnapshot, cpuUse } from '../../tools/src/bench/cpuUse.js';
import { installBarePage, type BareParams } from './barePage.js';
import { clockOffset, openBenchPage, percentile, runToVerdict, saveResult, setParams } from './benchPage.js';
import { startProfile, stopProfile, type HotSpot } from './cpuProfile.js';
import { installMarkProbe, watchTickWorkers, type ProbeState } from './markProbe.js';
import { startTrace, stopTrace, type TraceLine } from './traceSummary.js';

const RATE = Number(process.env.BENCH_E2P_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_E2P_SECONDS ?? 3);
const REPS = Number(process.env.BENCH_E2P_REPS ?? 3);
/**
 * A run at a hundredth of the rate, for its CPU only: what the page's renderer spends on a
 * live run whatever the events (each frame's style, layout, paint and compositing).
 */
const FLOOR_RATE = Math.max(10, Math.round(RATE / 100));
/**
 * The start of a run, from its first note, in ms: while the page lays out the run's lanes and
 * draws their first marks one by one, before they cluster (its events are timed apart).
 */
const START_MS = 100;
/** Set: one more run with the page's main thread profiled (meant for an unminified build). */
const PROFILE = process.env.BENCH_PROFILE === '1';

interface LastRun {
  startWallMs: number;
  verdict: string;
  notes: { text: string; seq: number; workerId: string; atMs: number; appendedWallMs: number }[];
}

interface Drawn {
  /** The frame that first drew the event: its own mark, or a cluster that counts it. */
  frameMs: number;
  visibleMs: number;
  receivedMs: number;
}

/** When each note was first drawn, on the page's clock: by its mark or by a cluster of its lane. */
function drawnNotes(run: LastRun, probe: ProbeState): Map<number, Drawn> {
  const marks = new Map(probe.marks.map((m) => [m.seq, m]));
  const received = new Map(probe.received);
  const clustersOf = new Map<string, ProbeState['clusters']>();
  for (const c of probe.clusters) {
    if (!Number.isFinite(c.frameMs)) continue;
    const list = clustersOf.get(c.lane);
    if (list) list.push(c);
    else clustersOf.set(c.lane, [c]);
  }
  /** A time, or never (+Infinity), so that Math.min picks the first that happened. */
  const orNever = (ms: number | undefined) => (ms !== undefined && Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY);
  const out = new Map<number, Drawn>();
  for (const note of run.notes) {
    const mark = marks.get(note.seq);
    let clusterMs = Number.POSITIVE_INFINITY;
    for (const c of clustersOf.get(note.workerId) ?? [])
      if (c.firstSeq <= note.seq && note.seq <= c.lastSeq) clusterMs = Math.min(clusterMs, c.frameMs);
    const frameMs = Math.min(orNever(mark?.frameMs), clusterMs);
    const visibleMs = Math.min(orNever(mark?.visibleMs), clusterMs);
    if (!Number.isFinite(frameMs)) continue;
    out.set(note.seq, {
      frameMs,
      visibleMs: Number.isFinite(visibleMs) ? visibleMs : Number.NaN,
      receivedMs: received.get(Number(note.text.slice(1))) ?? Number.NaN,
    });
  }
  return out;
}

type Clock = Awaited<ReturnType<typeof clockOffset>>;

/** The probe's record of the run just drawn (and a fresh one for the next), the tick worker's draws with it. */
async function takeProbe(page: Page, ticks?: ReturnType<typeof watchTickWorkers>): Promise<ProbeState> {
  const probe = (await page.evaluate(() => (window as unknown as { __markProbe: { take(): unknown } }).__markProbe.take())) as ProbeState;
  if (ticks) probe.clusters.push(...(await ticks.take()));
  return probe;
}

/** One run's latencies, from the server's record of its notes and the probe's of the page's frames. */
function measureRun(run: LastRun, probe: ProbeState, clock: Clock) {
  const drawn = drawnNotes(run, probe);
  const toServer = (pageMs: number) => pageMs + clock.offsetMs;
  const lat = { ipc: [] as number[], socket: [] as number[], page: [] as number[], frame: [] as number[], visible: [] as number[] };
  const bySecond: number[][] = Array.from({ length: SECONDS }, () => []);
  const firstAtMs = Math.min(...run.notes.map((n) => n.atMs));
  const atStart: number[] = [];
  const afterStart: number[] = [];
  // Where the start's events wait: on their way to the page, or in it.
  const startToPage: number[] = [];
  const startInPage: number[] = [];
  let missing = 0;
  for (const note of run.notes) {
    const emitMs = run.startWallMs + note.atMs;
    const d = drawn.get(note.seq);
    lat.ipc.push(note.appendedWallMs - emitMs);
    if (!d) {
      missing++;
      continue;
    }
    const atTheStart = note.atMs - firstAtMs < START_MS;
    if (Number.isFinite(d.receivedMs)) {
      lat.socket.push(toServer(d.receivedMs) - note.appendedWallMs);
      lat.page.push(d.frameMs - d.receivedMs);
      if (atTheStart) {
        startToPage.push(toServer(d.receivedMs) - note.appendedWallMs);
        startInPage.push(d.frameMs - d.receivedMs);
      }
    }
    const frame = toServer(d.frameMs) - emitMs;
    lat.frame.push(frame);
    bySecond[Math.min(SECONDS - 1, Math.floor(note.atMs / 1000))]?.push(frame);
    (atTheStart ? atStart : afterStart).push(frame);
    if (Number.isFinite(d.visibleMs)) lat.visible.push(toServer(d.visibleMs) - emitMs);
  }
  const summary = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: percentile(xs, 100) });
  return {
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
    p99BySecond: bySecond.map((xs) => percentile(xs, 99)),
    start: {
      ms: START_MS,
      atStart: summary(atStart),
      afterStart: summary(afterStart),
      toPage: summary(startToPage),
      inPage: summary(startInPage),
    },
    drawnAs: { marks: probe.marks.length, clusterUpdates: probe.clusters.length },
    samples: lat.frame,
  };
}

const lastRun = async (request: APIRequestContext) => (await (await request.get('/bench/last-run')).json()) as LastRun;
const serverPid = async (request: APIRequestContext) => ((await (await request.get('/bench/pid')).json()) as { pid: number }).pid;
const stream = { workers: 4, events: RATE * SECONDS, rate: RATE, mode: 'marks' } as const;

test('event to pixel', async ({ browser, page, request }) => {
  await page.addInitScript(installMarkProbe);
  const ticks = watchTickWorkers(page);
  await openBenchPage(page);
  // The page starts its tick worker as it opens (where the browser has OffscreenCanvas):
  // the probe is in it before any run.
  await expect
    .poll(() => page.workers().length, { timeout: 5000 })
    .toBeGreaterThan(0)
    .catch(() => undefined);
  await ticks.ready();
  await setParams(page, stream);
  const pid = await serverPid(request);
  const reps = [];
  let profile: HotSpot[] | null = null;
  let trace: TraceLine[] | null = null;
  for (let rep = 0; rep < REPS + (PROFILE ? 1 : 0); rep++) {
    const profiling = PROFILE && rep === REPS;
    const clock = await clockOffset(page);
    await takeProbe(page, ticks); // forget the last run
    // The JS profile and the trace are two passes: a trace of JS samples would be huge.
    const cdp = profiling ? await startProfile(page) : null;
    const before = cpuSnapshot();
    const headline = await runToVerdict(page, 120_000, true);
    const cpu = cpuUse(before, cpuSnapshot(), pid);
    await page.waitForTimeout(1000); // the last marks' frames and fade-ins
    if (cdp) {
      profile = await stopProfile(cdp, 25);
      await startTrace(browser, page);
      await runToVerdict(page, 120_000, true);
      await page.waitForTimeout(1000);
      trace = (await stopTrace(browser)).lines;
      continue;
    }
    const probe = await takeProbe(page, ticks);
    reps.push({ headline, ...measureRun(await lastRun(request), probe, clock), cpu });
  }
  await setParams(page, { ...stream, events: FLOOR_RATE * SECONDS, rate: FLOOR_RATE });
  const before = cpuSnapshot();
  await runToVerdict(page, 120_000, true);
  const floor = { rate: FLOOR_RATE, cpu: cpuUse(before, cpuSnapshot(), pid) };
  saveResult(PROFILE ? 'eventToPixel.profile' : 'eventToPixel', { rate: RATE, seconds: SECONDS, reps, floor, profile, trace });
});

// The same stream, the same server, workers, browser and probe, drawn by a bare page
// (barePage.ts): what this machine gives a page that does nothing but show the events.
test('event to pixel, bare page', async ({ page, request }) => {
  await page.addInitScript(installMarkProbe);
  await page.goto('/bench/bare-page');
  await page.evaluate(installBarePage);
  const pid = await serverPid(request);
  const reps = [];
  for (let rep = 0; rep < REPS; rep++) {
    const clock = await clockOffset(page);
    await takeProbe(page);
    const before = cpuSnapshot();
    await page.evaluate(
      (params) => (window as unknown as { __barePage: { run(p: BareParams): Promise<void> } }).__barePage.run(params),
      stream,
    );
    const cpu = cpuUse(before, cpuSnapshot(), pid);
    await page.waitForTimeout(1000);
    const probe = await takeProbe(page);
    reps.push({ ...measureRun(await lastRun(request), probe, clock), cpu });
  }
  saveResult('eventToPixel.bare', { rate: RATE, seconds: SECONDS, reps });
});

// Event to pixel and timeline at scale: runs the Playwright benchmarks of e2e/bench
// (e2e/bench/playwright.live.config.ts: Debian's Chromium, the built page, the bench
// server) and turns the JSON they write into figures. When event to pixel misses its
// target, one more pass on an unminified build of the page profiles the page's main
// thread (JS self time by function, and a trace of where the main thread's time went).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@racelab/server';
import type { CpuUse } from './cpuUse.js';
import type { BenchResult, Figure } from './figure.js';
import { percentile } from './stats.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const E2E = join(ROOT, 'e2e');
const CONFIG = 'bench/playwright.live.config.ts';
const MB = 2 ** 20;
/** One frame at 60 Hz, ms. */
const FRAME_MS = 1000 / 60;

interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}
interface E2pRep {
  verdict: string;
  events: number;
  missing: number;
  inTimeline: boolean | null;
  clock: { offsetMs: number; rttMs: number };
  emitToFrame: Summary;
  emitToVisible: Summary;
  emitToAppend: Summary;
  appendToReceived: Summary;
  receivedToFrame: Summary;
  p99BySecond: number[];
  /**
   * The events of the run's first `ms` (from its first note), and the rest; and, for the
   * first, their time from the server's append to the page's receipt and from there to the frame.
   */
  start: { ms: number; atStart: Summary; afterStart: Summary; toPage: Summary; inPage: Summary };
  drawnAs: { marks: number; clusterUpdates: number };
  cpu: CpuUse;
  samples: number[];
}
interface E2pResult {
  rate: number;
  seconds: number;
  reps: E2pRep[];
  /** One run at a low rate, for where the cores went only (see eventToPixel.live-bench.ts). */
  floor: { rate: number; cpu: CpuUse };
  profile: { fn: string; selfMs: number; share: number }[] | null;
  trace: { name: string; ms: number; count: number }[] | null;
}
/** The same stream drawn by e2e/bench/barePage.ts: the machine's floor. */
interface E2pBare {
  reps: E2pRep[];
}
interface FrameStats {
  frames: number;
  workP50: number;
  workP95: number;
  workMax: number;
  cpuP95: number;
  intervalP95: number;
  work: number[];
}
interface ScaleResult {
  events: number;
  rate: number;
  loadedVia: string;
  loaded: boolean;
  timeoutMs: number;
  verdictMs: number;
  settleMs: number;
  loadMs: number;
  memory: { jsHeapUsedBytes: number; jsHeapTotalBytes: number; domNodes: number; rendererRssBytes: number };
  markCount: number;
  loadTrace: { name: string; ms: number; count: number }[] | null;
  gestures: Record<string, { moved: boolean; frames: FrameStats; trace: { name: string; ms: number; count: number }[] | null }>;
}

/** Runs the Playwright benchmark `spec` of e2e/ (by default under the live config); rejects with its output's end when it fails. */
export function playwright(spec: string, env: NodeJS.ProcessEnv, args: string[] = [], config = CONFIG): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['playwright', 'test', '-c', config, spec, ...args], {
      cwd: E2E,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`playwright ${spec} exited ${code}: ${out.slice(-1500)}`))));
  });
}

const read = <T>(dir: string, name: string): T | null => {
  const file = join(dir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
};
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const traceText = (lines: { name: string; ms: number; count: number }[]) =>
  lines.map((l) => `${l.name} ${l.ms} ms (${l.count}×)`).join(', ');

/** An unminified build of the page, for readable profiles; null if it does not build. */
function unminifiedBuild(): Promise<string | null> {
  const out = mkdtempSync(join(tmpdir(), 'racelab-web-unminified-'));
  return new Promise((resolve) => {
    const child = spawn('npx', ['vite', 'build', '--minify', 'false', '--outDir', out, '--emptyOutDir'], {
      cwd: join(ROOT, 'web'),
      stdio: 'ignore',
    });
    child.on('exit', (code) => resolve(code === 0 ? out : null));
  });
}

/** Where the cores went while the runs were on (from the Run click to the verdict), and what the page's main thread waited. */
function cpuNote(runs: CpuUse[], floor: { rate: number; cpu: CpuUse }, rate: number): string {
  const mean = (pick: (c: CpuUse) => number) => runs.reduce((n, c) => n + pick(c), 0) / Math.max(1, runs.length);
  const cores = (x: number) => x.toFixed(2);
  const renderer = mean((c) => c.renderer);
  const main = runs.map((c) => c.pageMainThread);
  const waited = main.every((m) => m !== null)
    ? `The page's main thread (its renderer's first, from /proc/<pid>/schedstat) ran on a core ${main.map((m) => `${m.runMs.toFixed(0)} ms`).join(', ')} a run, ` +
      `and was ready to run but waited for a core ${main.map((m) => `${m.waitMs.toFixed(0)} ms`).join(', ')}: while it waits, so do the events it holds or is about to receive. ` +
      `Its nice value was ${[...new Set(main.map((m) => m.nice))].join(', ')} (as Chromium set it; a full machine's cores are shared by it). `
    : '';
  return (
    `Where the cores went while each run was on (Run pressed to verdict shown; /proc, tools/src/bench/cpuUse.ts), mean of ${runs.length} runs, in cores of ${runs[0]?.cores ?? '?'}: ` +
    `the page's renderer ${cores(renderer)}, Chromium's other processes ${cores(mean((c) => c.chromiumOther))}, ` +
    `the bench server ${cores(mean((c) => c.server))}, its 4 worker processes ${cores(mean((c) => c.workers))}, everything else (Playwright, Redis, PostgreSQL…) ${cores(mean((c) => c.rest))}; ` +
    `the machine was busy ${(mean((c) => c.machineBusy) * 100).toFixed(0)} % of the time (per run: ${runs.map((c) => `${(c.machineBusy * 100).toFixed(0)} %`).join(', ')}). ` +
    waited +
    `A run of the same length at ${floor.rate} events/s (a hundredth of ${rate}) kept the page's renderer at ${cores(floor.cpu.renderer)} cores, ` +
    `${((floor.cpu.renderer / Math.max(1e-9, renderer)) * 100).toFixed(0)} % of what it took at ${rate}: what drawing a live run 60 times a second costs ` +
    `(each frame's style, layout, paint and compositing) whatever the events. ` +
    `A machine busy near 100 % queues every process's work behind the others': the latencies above then measure the queue as much as the page.`
  );
}

export async function benchEventToPixel(reps = 3): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'racelab-bench-'));
  try {
    const env = { BENCH_PORT: String(await freePort()), BENCH_RESULTS_DIR: dir, BENCH_E2P_REPS: String(reps) };
    await playwright('eventToPixel', env);
    const r = read<E2pResult>(dir, 'eventToPixel');
    const bare = read<E2pBare>(dir, 'eventToPixel.bare');
    if (!r || !bare) throw new Error('the event-to-pixel benchmark wrote no result');
    const all = r.reps.flatMap((x) => x.samples);
    const bareAll = bare.reps.flatMap((x) => x.samples);
    const startMs = r.reps[0]?.start.ms ?? '?';
    const figures: Figure[] = [
      {
        section: 'Event to pixel',
        name: `worker emit → frame drawing it (its mark or a cluster counting it), at ${r.rate.toLocaleString('en-US')} events/s`,
        unit: 'ms',
        samples: all,
        sampleOf: 'event',
        target: { stat: 'p99', op: '<=', value: 33 }, // two frames at 60 Hz
        note: `${r.reps.length} runs of ${r.seconds} s; p50 ${f1(percentile(all, 50))} ms`,
      },
      {
        section: 'Event to pixel',
        name: "worker emit → visible (a mark's opacity > 0, or its cluster drawn), p50 of each run",
        unit: 'ms',
        samples: r.reps.map((x) => x.emitToVisible.p50),
        sampleOf: 'run (its p50)',
      },
      { section: 'Event to pixel', name: 'p99 of each run', unit: 'ms', samples: r.reps.map((x) => x.emitToFrame.p99), sampleOf: 'run' },
      {
        section: 'Event to pixel',
        name: `p99 of each run's events after its first ${startMs} ms (the lanes laid out, their marks clustering)`,
        unit: 'ms',
        samples: r.reps.map((x) => x.start.afterStart.p99),
        sampleOf: 'run',
        note:
          `the first ${startMs} ms of events, p50 / p99 per run: ${r.reps.map((x) => `${f1(x.start.atStart.p50)} / ${f1(x.start.atStart.p99)} (${x.start.atStart.n} events)`).join(', ')}; ` +
          `their p50 from server to page, then page to frame: ${r.reps.map((x) => `${f1(x.start.toPage.p50)} + ${f1(x.start.inPage.p50)}`).join(', ')}`,
      },
      { section: 'Event to pixel', name: 'events never drawn', unit: 'events', samples: r.reps.map((x) => x.missing), sampleOf: 'run' },
      {
        section: 'Event to pixel',
        name: `the same stream drawn by a bare page (a line of text per lane, no framework): this machine's floor`,
        unit: 'ms',
        samples: bareAll,
        sampleOf: 'event',
        note:
          `${bare.reps.length} runs; p50 ${f1(percentile(bareAll, 50))} ms; p99 of each run ${bare.reps.map((x) => f1(x.emitToFrame.p99)).join(', ')}; ` +
          `the page's renderer ${bare.reps.map((x) => x.cpu.renderer.toFixed(2)).join(', ')} cores, the machine busy ${bare.reps.map((x) => `${(x.cpu.machineBusy * 100).toFixed(0)} %`).join(', ')}; ` +
          `the app's p99 is ${f1(percentile(all, 99) - percentile(bareAll, 99))} ms above it`,
      },
    ];
    const notes = [
      `Method. The bench server (tools/src/bench/emitter/benchServer.ts) is the real socket server, run log and worker pool, offering one bench-only scenario that is not in the catalog: ` +
        `4 worker processes emit notes "#i" at ${r.rate} events/s in total for ${r.seconds} s through the real worker context and IPC. A worker stamps atMs on the host-wide monotonic clock; the server turns it into its wall clock (performance.timeOrigin + now). ` +
        `The page (the app's own build, Debian's Chromium) runs probes injected before its script (e2e/bench/markProbe.ts): a MutationObserver sees each shape that draws events enter the DOM or change, a mark (data-mark, one event) or a cluster of a lane's marks too close to tell apart (data-marks, its lane's marks from the first to the last it names: a lane with more marks than it draws one by one draws clusters), and an event is drawn by the first frame that renders either; that frame is the first whose style and layout come after the change (the page changes the DOM from its own requestAnimationFrame callbacks, so that is usually the same frame), timed by a message posted from that frame's ResizeObserver callback, which arrives once the frame's style, layout and paint are done on the main thread. ` +
        `Where the page draws a live run's events in its tick worker (web/src/ticks/: the worker holds the page's socket and draws each lane's ticks on an OffscreenCanvas), the probe is also in the worker: each draw, from the worker's own animation frame, counts as a cluster of its lane (its first and last seq) at the moment the drawing returns; and a note's arrival is stamped as the page's main thread takes the message from the worker. ` +
        `The page's clock is lined up with the server's by the shortest of 40 GET /bench/now round trips (error ≤ half of it: ${r.reps.map((x) => f1(x.clock.rttMs / 2)).join(', ')} ms). Compositing and display after the main thread are not seen.`,
      `Segments, p50 / p99 per run (ms): ` +
        r.reps
          .map(
            (x, i) =>
              `run ${i + 1}: emit → server appends ${f1(x.emitToAppend.p50)} / ${f1(x.emitToAppend.p99)}, server → page receives ${f1(x.appendToReceived.p50)} / ${f1(x.appendToReceived.p99)}, page receives → frame ${f1(x.receivedToFrame.p50)} / ${f1(x.receivedToFrame.p99)}; p99 by second of the run ${x.p99BySecond.map(f1).join(', ')}; marks in the Timeline region: ${x.inTimeline}`,
          )
          .join('; ') +
        '.',
    ];
    notes.push(
      cpuNote(
        r.reps.map((x) => x.cpu),
        r.floor,
        r.rate,
      ),
    );
    const drawn = r.reps.reduce((n, x) => n + x.events - x.missing, 0);
    const emitted = r.reps.reduce((n, x) => n + x.events, 0);
    notes.push(
      `Drawn: ${drawn} of ${emitted} events; per run, as marks and cluster changes: ${r.reps.map((x) => `${x.drawnAs.marks} marks, ${x.drawnAs.clusterUpdates} cluster changes`).join('; ')}.`,
    );
    if (percentile(all, 99) > 16) {
      const root = await unminifiedBuild();
      if (root) {
        await playwright(
          'eventToPixel',
          {
            ...env,
            BENCH_PORT: String(await freePort()),
            BENCH_PROFILE: '1',
            BENCH_E2P_REPS: '0',
            BENCH_WEB_ROOT: root,
          },
          ['--grep-invert', 'bare page'],
        ).catch((e: Error) => notes.push(`The profile pass failed: ${e.message.slice(0, 300)}`));
        rmSync(root, { recursive: true, force: true });
        const p = read<E2pResult>(dir, 'eventToPixel.profile');
        if (p?.profile) {
          notes.push(
            `Profile, the p99 being over one frame (16 ms): one more run on an unminified build of the same page, JS self time, top functions: ${p.profile
              .slice(0, 14)
              .map((h) => `${h.fn} ${h.selfMs} ms (${h.share}%)`)
              .join(', ')}.`,
          );
        }
        if (p?.trace)
          notes.push(
            `Trace of the main thread over a second such run, time by event (nested events counted in each): ${traceText(p.trace)}.`,
          );
      } else notes.push('The page did not build unminified, so it was not profiled.');
    }
    return { figures, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTimelineAtScale(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'racelab-bench-'));
  try {
    await playwright('timelineAtScale', { BENCH_PORT: String(await freePort()), BENCH_RESULTS_DIR: dir });
    const r = read<ScaleResult>(dir, 'timelineAtScale');
    if (!r) throw new Error('the timeline-at-scale benchmark wrote no result');
    const section = 'Timeline at scale';
    const moved = Object.entries(r.gestures).filter(([, g]) => g.moved);
    const work = moved.flatMap(([, g]) => g.frames.work);
    const notLoaded = `not measured: the page had not shown the run's verdict ${r.timeoutMs / 1000} s after it was started`;
    const figures: Figure[] = [
      {
        section,
        name: `load ${r.events.toLocaleString('en-US')} events (${r.loadedVia}) until the verdict shows and frames settle`,
        unit: 'ms',
        samples: r.loaded ? [r.loadMs] : [],
        sampleOf: 'load',
        note: r.loaded ? '' : notLoaded,
      },
      {
        section,
        name: 'frame work while panning and zooming',
        unit: 'ms',
        samples: work,
        sampleOf: 'frame',
        target: { stat: 'p95', op: '<=', value: 8 },
        note: !r.loaded
          ? notLoaded
          : moved.length === 0
            ? 'not measured: nothing in this build panned or zoomed (wheel, Ctrl/Shift+wheel, drag, + → − keys)'
            : `gestures that moved the view: ${moved.map(([name]) => name).join(', ')}`,
      },
      // What the page holds once loaded: one sample each.
      ...(
        [
          ['JS heap used after a full GC', 'MB', r.memory.jsHeapUsedBytes / MB],
          ['renderer process RSS', 'MB', r.memory.rendererRssBytes / MB],
          ['DOM nodes', 'nodes', r.memory.domNodes],
        ] as const
      ).map(([name, unit, value]) => ({
        section,
        name,
        unit,
        samples: [value].filter(Number.isFinite),
        sampleOf: 'page',
        note: r.loaded ? '' : 'while still loading',
      })),
    ];
    const notes = [
      `Method (e2e/bench/timelineAtScale.live-bench.ts): ${r.events.toLocaleString('en-US')} events of 4 workers' lock cycles (lease requested/acquired/released, work started/finished, read, write, call) at ${r.rate.toLocaleString('en-US')} events/s, loaded ${r.loadedVia === 'recording file' ? 'from a generated recording through the page\'s "Open recording" input' : "as a live run of the bench emitter through the page's own socket (this build has no recording input)"}. ` +
        "Frame work is the renderer main thread's busy time per frame, read from a Chromium trace of each gesture (e2e/bench/traceSummary.ts): the task that renders the frame (input, rAF callbacks, style, layout, paint) plus every task run since the previous one (timers, messages, React's slices, GC); idle time and the wait to be scheduled are not work (a timestamp taken in the page cannot tell them apart: a no-op key press showed 10–18 ms \"frames\" that way, with the main thread idle). Gestures over the Timeline: wheel, Ctrl+wheel, Shift+wheel, a drag, and the keys + → −; a gesture counts when the marks' horizontal positions changed. " +
        `Memory: CDP Performance metrics after HeapProfiler.collectGarbage; the renderer's RSS from /proc. Marks (role=img) in the Timeline: ${r.markCount}.`,
      `Per gesture (frames, work p50 / p95 / max ms, CPU p95 ms, rAF interval p95 ms, moved): ${
        Object.entries(r.gestures)
          .map(
            ([name, g]) =>
              `${name}: ${g.frames.frames}, ${f1(g.frames.workP50)} / ${f1(g.frames.workP95)} / ${f1(g.frames.workMax)}, ${f1(g.frames.cpuP95)}, ${f1(g.frames.intervalP95)}, ${g.moved ? 'moved' : 'did not move'}`,
          )
          .join('; ') || 'none run'
      }.`,
    ];
    if (work.length > 0) {
      const over = work.filter((ms) => ms > FRAME_MS);
      notes.push(
        `Frames whose work would miss a 60 Hz frame (over ${f1(FRAME_MS)} ms): ${over.length} of ${work.length}, the longest ${f1(Math.max(...work))} ms (each time React draws the tracks again for a new window: a zoom past the drawing, or the view coming to rest).`,
      );
    }
    if (r.loadTrace)
      notes.push(
        `Trace of the main thread over the last 10 s before the load's deadline, time by event (nested events counted in each): ${traceText(r.loadTrace)}.`,
      );
    for (const [name, g] of moved)
      if (g.trace) notes.push(`Trace of the main thread during "${name}" (over budget): ${traceText(g.trace)}.`);
    return { figures, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

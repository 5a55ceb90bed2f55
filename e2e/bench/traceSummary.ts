// A Chromium trace (devtools.timeline and toplevel) of a stretch of a benchmark, read on
// the renderer's main thread: how much went to script, style, layout, paint and GC, summed
// by event name; and the main thread's work per frame. The JS profiler shows that work
// only as "(program)"; the trace names it. Nested events are each counted in full in the
// sums (a Layout forced inside a FunctionCall is in both).
//
// Work per frame is what the main thread was busy with for that frame: the task that
// renders it (BeginMainFrame: input, rAF callbacks, style, layout, paint) plus every task
// that ran since the previous one ended (timers, messages, input, GC). Time the thread
// sat idle, or waited to be scheduled before its frame began, is not work.
import type { Browser, Page } from '@playwright/test';

export interface TraceLine {
  name: string;
  ms: number;
  count: number;
}

export interface TraceSummary {
  lines: TraceLine[];
  /** Main-thread work of each frame rendered while tracing, ms (wall clock), in order. */
  frameWorkMs: number[];
  /** The same on the thread's CPU clock: without the time the thread was descheduled. */
  frameCpuMs: number[];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; src_func?: string };
}

/** The task that renders a frame on the main thread, as the compositor posts it. */
const BEGIN_MAIN_FRAME = 'ScheduledActionSendBeginMainFrame';
const TASK = 'ThreadControllerImpl::RunTask';

export async function startTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'v8.execute', 'blink.user_timing'] });
}

/** Stops tracing; main-thread time by event name, largest first, and the work per frame. */
export async function stopTrace(browser: Browser, count = 14): Promise<TraceSummary> {
  const buffer = await browser.stopTracing();
  const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The page's renderer is the main thread with the most work.
  let best: { pid: number; tid: number; total: number } | null = null;
  for (const m of mains) {
    const total = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X').reduce((s, e) => s + (e.dur ?? 0), 0);
    if (!best || total > best.total) best = { pid: m.pid, tid: m.tid, total };
  }
  if (!best) return { lines: [], frameWorkMs: [], frameCpuMs: [] };
  const main = events.filter((e) => e.pid === best.pid && e.tid === best.tid && e.ph === 'X');
  const byName = new Map<string, { us: number; count: number }>();
  for (const e of main) {
    const line = byName.get(e.name) ?? { us: 0, count: 0 };
    line.us += e.dur ?? 0;
    line.count++;
    byName.set(e.name, line);
  }
  // Top-level tasks in order (a task run inside another is part of it).
  const tasks = main.filter((e) => e.name === TASK).sort((a, b) => a.ts - b.ts);
  const frameWorkMs: number[] = [];
  const frameCpuMs: number[] = [];
  let busyUs = 0;
  let cpuUs = 0;
  let endOfLast = Number.NEGATIVE_INFINITY;
  for (const t of tasks) {
    if (t.ts < endOfLast) continue;
    endOfLast = t.ts + (t.dur ?? 0);
    busyUs += t.dur ?? 0;
    cpuUs += t.tdur ?? t.dur ?? 0;
    if (t.args?.src_func === BEGIN_MAIN_FRAME) {
      frameWorkMs.push(busyUs / 1000);
      frameCpuMs.push(cpuUs / 1000);
      busyUs = 0;
      cpuUs = 0;
    }
  }
  return {
    lines: [...byName.entries()]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, count)
      .map(([name, l]) => ({ name, ms: Math.round(l.us / 1000), count: l.count })),
    frameWorkMs,
    frameCpuMs,
  };
}

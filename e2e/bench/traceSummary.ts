// A Chromium trace (devtools.timeline) of a stretch of a benchmark, summed by event name
// on the renderer's main thread: how much went to script, style, layout, paint, GC. The
// JS profiler shows that work only as "(program)"; the trace names it. Nested events are
// each counted in full (a Layout forced inside a FunctionCall is in both).
import type { Browser, Page } from '@playwright/test';

export interface TraceLine {
  name: string;
  ms: number;
  count: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

export async function startTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8.execute', 'blink.user_timing'] });
}

/** Stops tracing; main-thread time by event name, largest first, with the span traced. */
export async function stopTrace(browser: Browser, count = 14): Promise<{ lines: TraceLine[] }> {
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
  if (!best) return { lines: [] };
  const byName = new Map<string, { us: number; count: number }>();
  for (const e of events) {
    if (e.pid !== best.pid || e.tid !== best.tid || e.ph !== 'X') continue;
    const line = byName.get(e.name) ?? { us: 0, count: 0 };
    line.us += e.dur ?? 0;
    line.count++;
    byName.set(e.name, line);
  }
  return {
    lines: [...byName.entries()]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, count)
      .map(([name, l]) => ({ name, ms: Math.round(l.us / 1000), count: l.count })),
  };
}

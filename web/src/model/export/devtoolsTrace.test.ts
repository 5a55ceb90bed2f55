// The exported trace, opened by a real consumer of the Trace Event Format: the trace
// engine of Chrome DevTools' Performance panel (published as @paulirish/trace_engine, a
// dev dependency used only here). Perfetto's UI cannot be reached from the test machine;
// this engine is as strict a reader and runs in Node.
import * as TraceEngine from '@paulirish/trace_engine';
import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../fixtures/blindDelRun.js';
import { chromeTrace } from './chromeTrace.js';

// The engine measures with DOMRect, which Node has not.
globalThis.DOMRect ??= class {
  constructor(
    readonly x = 0,
    readonly y = 0,
    readonly width = 0,
    readonly height = 0,
  ) {}
} as unknown as typeof DOMRect;

interface Thread {
  name: string;
  entries: { name: string; ts: number; dur?: number }[];
}

async function openInDevTools(traceEvents: unknown[]): Promise<Thread[]> {
  const engine = TraceEngine.Processor.TraceProcessor.createWithAllHandlers();
  await engine.parse(traceEvents as never, {});
  const parsed = (engine as unknown as { data: unknown }).data as {
    Renderer: { processes: Map<unknown, { threads: Map<unknown, Thread> }> };
  };
  return [...parsed.Renderer.processes.values()].flatMap((p) => [...p.threads.values()]);
}

describe('the Chrome trace in the DevTools trace engine', () => {
  it('shows a thread per worker and store lane, with leases, work, stalls and zombie windows as slices', async () => {
    const trace = chromeTrace([{ label: 'duplicate-job · blind-del (broken)', events: blindDelRun() }], new Date('2026-01-01T00:00:00Z'));
    const threads = await openInDevTools(trace.traceEvents);
    const byName = new Map(threads.map((t) => [t.name.replace(/ \(pid \d+\)$/, ''), t]));
    expect([...byName.keys()]).toEqual(['worker-1', 'worker-2', 'worker-3', 'holders at once', 'Redis lock:nightly-report']);

    const names = (thread: string) => byName.get(thread)!.entries.map((e) => e.name);
    expect(names('worker-1')).toEqual(
      expect.arrayContaining(['lease lock:nightly-report', 'work', 'process stalled', 'zombie lock:nightly-report']),
    );
    expect(names('worker-2')).toContain('lease lock:nightly-report');
    expect(names('holders at once')).toContain('2 workers at once on lock:nightly-report');
    expect(names('Redis lock:nightly-report')).toEqual(expect.arrayContaining(['worker-1', 'worker-2', 'worker-3']));

    // The engine reads time as the file gives it: worker-1's lease slice is where the export put it.
    const lease = trace.traceEvents.find(
      (e) =>
        e.ph === 'X' &&
        e.name === 'lease lock:nightly-report' &&
        e.tid === trace.traceEvents.find((m) => m.args?.name === 'worker-1 (pid 5100)')?.tid,
    );
    const seen = byName.get('worker-1')!.entries.find((e) => e.name === 'lease lock:nightly-report')!;
    expect(lease).toBeDefined();
    expect(seen.dur).toBe(lease!.dur);
  });
});

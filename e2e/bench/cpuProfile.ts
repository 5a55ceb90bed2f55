// A CPU profile of the page's main thread over a stretch of a benchmark (CDP Profiler),
// summed bottom-up: where the time went, by function, for BENCHMARKS.md's notes on misses.
import type { CDPSession, Page } from '@playwright/test';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface HotSpot {
  fn: string;
  selfMs: number;
  share: number;
}

export async function startProfile(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}

/** Stops the profile; the top `count` functions by self time (idle and GC included as such). */
export async function stopProfile(cdp: CDPSession, count = 15): Promise<HotSpot[]> {
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await cdp.detach();
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, k) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = byNode.get(node.id) ?? 0;
    total += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').pop() ?? '';
    const name = `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
    byFn.set(name, (byFn.get(name) ?? 0) + ms);
  }
  return [...byFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, selfMs]) => ({ fn, selfMs: Math.round(selfMs), share: Math.round((selfMs / Math.max(1, total)) * 1000) / 10 }));
}

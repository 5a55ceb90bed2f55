// Both hot-key variants against the real Redis and PostgreSQL, at their defaults and at
// other parameters. Every job is ready before any starts and none finishes before all
// have tried their lock, so the overlaps are the same on every run.
// The other parameters are in hotKey.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('hot-key');
const { run } = tested;

/** The span of the jobs' work as the workers reported it, in ms. */
function workSpan(events: Awaited<ReturnType<typeof run>>['events']): number {
  const started = eventsOf(events, 'work-started').map((e) => e.atMs);
  const finished = eventsOf(events, 'work-finished').map((e) => e.atMs);
  return Math.max(...finished) - Math.min(...started);
}

describe('hot-key at its defaults', () => {
  it('global-key: safe, but the 20 jobs run one at a time', async () => {
    const { metrics, verdict, events } = await run('global-key');
    expect(metrics).toEqual({ jobsDone: 20, maxParallelJobs: 1, maxParallelPerEntity: 1, wallMs: 4000 });
    expect(verdict).toBe('fail');
    // One key for every job, each released by its holder.
    const acquired = eventsOf(events, 'lease-acquired');
    expect(new Set(acquired.map((e) => e.key))).toEqual(new Set(['lock:sync']));
    expect(eventsOf(events, 'lease-released').every((e) => e.deleted === 1)).toBe(true);
    expect(eventsOf(events, 'wait-started')).toHaveLength(19);
    expect(workSpan(events)).toBeGreaterThanOrEqual(4000);
  });

  it('per-entity-key: five customers side by side, four job lengths', async () => {
    const { metrics, verdict, events } = await run('per-entity-key');
    expect(metrics).toEqual({ jobsDone: 20, maxParallelJobs: 5, maxParallelPerEntity: 1, wallMs: 800 });
    expect(verdict).toBe('pass');
    const keys = new Set(eventsOf(events, 'lease-acquired').map((e) => e.key));
    expect(keys).toEqual(new Set([1, 2, 3, 4, 5].map((i) => `lock:sync:customer-${i}`)));
    expect(eventsOf(events, 'wait-started')).toHaveLength(15);
    expect(workSpan(events)).toBeGreaterThanOrEqual(800);
    expect(workSpan(events)).toBeLessThan(4000);
    const rows = eventsOf(events, 'row-observed').at(-1)?.value;
    expect(rows).toMatch(/^20 done, 0 running · first start to last end \d+ ms$/);
  });
});

describe('hot-key counts the rows, not what the workers said', () => {
  it('a worker killed mid-job leaves its row open, and the overlap it had still shows', async () => {
    // Two jobs of one customer, one per worker, each behind a key of its own (the
    // key-per-job near-miss): they overlap. worker-1 dies right after its job's row is
    // written, before it can record the end: the row counts as running to the end.
    const params = { jobs: 2, entities: 1, workers: 2, jobMs: 300 };
    const kill = [{ checkpoint: 'after-job-row', target: 'worker-1', action: 'kill' as const }];
    const whole = await play(tested.playground, 'hot-key', 'key-per-job', params, undefined, { mutants: true });
    expect(whole.metrics).toEqual({ jobsDone: 2, maxParallelJobs: 2, maxParallelPerEntity: 2, wallMs: 300 });
    expect(whole.verdict).toBe('fail');
    const killed = await play(tested.playground, 'hot-key', 'key-per-job', params, kill, { mutants: true });
    expect(eventsOf(killed.events, 'process-killed', 'worker-1')).toHaveLength(1);
    expect(eventsOf(killed.events, 'work-finished', 'worker-1')).toHaveLength(0);
    expect(killed.metrics).toEqual({ jobsDone: 1, maxParallelJobs: 2, maxParallelPerEntity: 2, wallMs: 300 });
    expect(killed.verdict).toBe('fail');
  });
});

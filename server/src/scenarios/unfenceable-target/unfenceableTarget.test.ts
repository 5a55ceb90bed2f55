// Every unfenceable-target variant against the real Redis, PostgreSQL and file system, at
// its defaults and at other parameters. worker-1 is stopped for real (SIGSTOP/SIGCONT);
// worker-2 moves when the server sees the lease gone; so each verdict is the same on
// every run. The verdict reads the report a reader gets, from the target itself.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground();
});
afterAll(async () => {
  await playground.close();
});

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'unfenceable-target', variant, params);

const stale = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1', finalFence: 1 };
const refused = { maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2', finalFence: 2 };
const quiet = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-2', finalFence: 2 };
const readerLane = (events: Parameters<typeof eventsOf>[0]) =>
  eventsOf(events, 'row-observed')
    .filter((e) => e.target === 'report readers get')
    .map((e) => e.value);

describe('unfenceable-target at its defaults', () => {
  it('file-with-token: both hold fences, and the fence-1 file replaces the fence-2 file', async () => {
    const { metrics, verdict, events } = await run('file-with-token');
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'process-paused', 'worker-1')).toEqual([expect.objectContaining({ plannedMs: 2500 })]);
    // The server read the file itself: worker-2's report, then worker-1's older one.
    expect(readerLane(events).slice(-2)).toEqual(['worker-2 · fence 2 (report.txt)', 'worker-1 · fence 1 (report.txt)']);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
  });

  it('versioned-key: the Lua compare refuses the stale upload', async () => {
    const { metrics, verdict, events } = await run('versioned-key');
    expect(metrics).toEqual(refused);
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(
      eventsOf(events, 'key-observed')
        .filter((e) => e.key === 'report:fence')
        .at(-1)?.value,
    ).toBe('2');
    expect(readerLane(events).at(-1)).toBe('worker-2 · fence 2 (key report)');
  });

  it('fenced-pointer: the stale file is written, but the pointer stays on fence 2', async () => {
    const { metrics, verdict, events } = await run('fenced-pointer');
    expect(metrics).toEqual(refused);
    expect(verdict).toBe('pass');
    const files = eventsOf(events, 'row-observed').filter((e) => e.target === 'uploaded files');
    expect(files.at(-1)?.value).toBe('report-fence-1.txt, report-fence-2.txt');
    expect(readerLane(events).at(-1)).toBe('worker-2 · fence 2 (published → report-fence-2.txt)');
  });
});

describe('unfenceable-target honours its parameters', () => {
  it('a pause shorter than the lease: no overlap, every target ends with worker-2', async () => {
    for (const variant of ['file-with-token', 'versioned-key', 'fenced-pointer']) {
      const { metrics, verdict } = await run(variant, { pauseMs: 200, leaseMs: 5000 });
      expect(metrics, variant).toEqual(quiet);
      expect(verdict).toBe('pass');
    }
  });

  it('the lease expires during the work, not the pause: the same stale upload', async () => {
    const params = { pauseMs: 300, workMs: 900, leaseMs: 800 };
    expect((await run('file-with-token', params)).metrics).toEqual(stale);
    const { metrics, events } = await run('fenced-pointer', params);
    expect(metrics).toEqual(refused);
    // worker-1's upload comes after worker-2's (held back by the choreography while worker-2
    // had not uploaded yet, which a busy machine may spare).
    const write = (w: string) => events.find((e) => (e.type === 'write-accepted' || e.type === 'write-rejected') && e.workerId === w)!;
    expect(write('worker-1').seq).toBeGreaterThan(write('worker-2').seq);
    const waits = eventsOf(events, 'wait-finished', 'worker-1').map((e) => e.reason);
    expect(waits.every((reason) => /worker-2, the newer holder, uploads first/.test(reason))).toBe(true);
  });

  it('the pause lasts pauseMs and the lease is what Redis holds', async () => {
    const { events, metrics } = await run('versioned-key', { leaseMs: 3000, pauseMs: 4000, workMs: 0 });
    expect(metrics).toEqual(refused);
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(4000);
    const seen = eventsOf(events, 'key-observed').find((e) => e.key === 'lock:report' && e.value !== null)!;
    expect(seen.pttlMs).toBeGreaterThan(2500);
    expect(seen.pttlMs).toBeLessThanOrEqual(3000);
  });

  it("removes the run's upload folder", async () => {
    const prepared = playground.prepare({ scenario: 'unfenceable-target', variant: 'file-with-token', params: { pauseMs: 0, workMs: 0 } });
    if (!prepared.ok) throw new Error(prepared.error);
    const folders = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`racelab-uploads-${prepared.run.id}-`));
    let during: string[] = [];
    prepared.run.onEvent((e) => {
      if (e.type === 'run-started') during = folders();
    });
    const outcome = await prepared.run.start();
    expect(outcome.status === 'finished' && outcome.metrics).toEqual(quiet);
    expect(during).toHaveLength(1);
    expect(folders()).toEqual([]);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = playground.prepare({ scenario: 'unfenceable-target', variant: 'file-with-token', params: { pauseMs: 20_000 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'pauseMs' must be an integer from 0 to 15000, got 20000" });
  });
});

describe('unfenceable-target reads the verdict from the targets, whatever the worker says', () => {
  const killAfterUpload = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];

  it('file-with-token: worker-1 killed right after its stale upload, before a word of it: the file still says fence 1', async () => {
    const { metrics, verdict, events } = await play(playground, 'unfenceable-target', 'file-with-token', {}, killAfterUpload);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    // Only the holders figure, which the upload job logs itself, misses worker-1's upload.
    expect(metrics).toEqual({ ...stale, maxConcurrentHolders: 1 });
    expect(verdict).toBe('fail');
  });

  it('versioned-key: worker-1 killed right after its refused upload: the key counted the refusal', async () => {
    const { metrics, verdict } = await play(playground, 'unfenceable-target', 'versioned-key', {}, killAfterUpload);
    expect(metrics).toEqual({ ...refused, maxConcurrentHolders: 1 });
    expect(verdict).toBe('pass');
  });
});

describe('unfenceable-target counts every grant from what Redis held, whatever the worker records', () => {
  it('file-with-token: worker-2 killed right after it took the lease: worker-1 still uploads as one of two holders', async () => {
    // worker-2 dies before any other line of its job: only the server's observer of the lock key knows it was granted.
    const killAfterGrant = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(playground, 'unfenceable-target', 'file-with-token', {}, killAfterGrant);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
  });
});

// Every unfenceable-target variant against the real Redis, PostgreSQL and file system, at
// its defaults and at other parameters. worker-1 is stopped for real (SIGSTOP/SIGCONT);
// worker-2 moves when the server sees the lease gone; so each verdict is the same on
// every run. The verdict reads the report a reader gets, from the target itself.
// The other parameters are in unfenceableTarget.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('unfenceable-target');
const { run } = tested;

const stale = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1', finalFence: 1 };
const refused = { maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2', finalFence: 2 };
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

describe('unfenceable-target reads the verdict from the targets, whatever the worker says', () => {
  const killAfterUpload = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];

  it('file-with-token: worker-1 killed right after its stale upload, before a word of it: the file still says fence 1', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'unfenceable-target', 'file-with-token', {}, killAfterUpload);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    // Only the holders figure, which the upload job logs itself, misses worker-1's upload.
    expect(metrics).toEqual({ ...stale, maxConcurrentHolders: 1 });
    expect(verdict).toBe('fail');
  });

  it('versioned-key: worker-1 killed right after its refused upload: the key counted the refusal', async () => {
    const { metrics, verdict } = await play(tested.playground, 'unfenceable-target', 'versioned-key', {}, killAfterUpload);
    expect(metrics).toEqual({ ...refused, maxConcurrentHolders: 1 });
    expect(verdict).toBe('pass');
  });
});

describe('unfenceable-target counts every grant from what Redis held, whatever the worker records', () => {
  it('file-with-token: worker-2 killed right after it took the lease: worker-1 still uploads as one of two holders', async () => {
    // worker-2 dies before any other line of its job: only the server's observer of the lock key knows it was granted.
    const killAfterGrant = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'unfenceable-target', 'file-with-token', {}, killAfterGrant);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
  });
});

// Both fencing variants against the real Redis and PostgreSQL, at their defaults and at
// other parameters. worker-1 is stopped for real (SIGSTOP/SIGCONT); worker-2 moves when
// the server sees the lease gone from Redis; so each verdict is the same on every run.
// The other parameters are in fencing.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('fencing');
const { run } = tested;

const overlap = { maxConcurrentHolders: 2, finalFence: 2, finalWriter: 'worker-2' };

describe('fencing at its defaults', () => {
  it('lease-only: worker-1 wakes up after its lease passed on and its stale write lands', async () => {
    const { metrics, verdict, events } = await run('lease-only');
    expect(metrics).toEqual({
      maxConcurrentHolders: 2,
      staleWritesAccepted: 1,
      staleWritesRejected: 0,
      finalFence: 1,
      finalWriter: 'worker-1',
    });
    expect(verdict).toBe('fail');
    // The stop was real: the server paused and resumed worker-1's process.
    const paused = eventsOf(events, 'process-paused', 'worker-1');
    expect(paused).toEqual([expect.objectContaining({ plannedMs: 2500 })]);
    const resumed = eventsOf(events, 'process-resumed', 'worker-1')[0]!;
    // worker-2 got the lease while worker-1 was stopped, and wrote before it woke up.
    const granted = eventsOf(events, 'lease-acquired', 'worker-2')[0]!;
    const w2Write = eventsOf(events, 'write-accepted', 'worker-2')[0]!;
    expect(granted.atMs).toBeGreaterThan(paused[0]!.atMs);
    expect(w2Write.atMs).toBeLessThan(resumed.atMs);
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
    expect(eventsOf(events, 'row-observed').at(-1)?.value).toBe('worker-1 · fence 1');
  });

  it("fenced: the same overlap, but Postgres rejects worker-1's stale write", async () => {
    const { metrics, verdict, events } = await run('fenced');
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(eventsOf(events, 'write-accepted', 'worker-2')).toEqual([expect.objectContaining({ fence: 2 })]);
    expect(
      eventsOf(events, 'key-observed')
        .filter((e) => e.key === 'fence')
        .at(-1)?.value,
    ).toBe('2');
    expect(eventsOf(events, 'row-observed').at(-1)?.value).toBe('worker-2 · fence 2');
  });
});

describe('fencing judges writes by what reached the row, whatever the worker says', () => {
  const killAfterWrite = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];

  it('lease-only: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'fencing', 'lease-only', {}, killAfterWrite);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 1, staleWritesRejected: 0, finalFence: 1, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });

  it('fenced: worker-1 killed right after its refused write: the refusal is on record, the verdict the same', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'fencing', 'fenced', {}, killAfterWrite);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    expect(verdict).toBe('pass');
  });

  it('a stale write sent straight to the table, around the fenced path, is caught by the row', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'fencing', 'bypasses-the-fence', {}, undefined, { mutants: true });
    // worker-1 says only that its fenced write was refused; the row logged the other one too.
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toHaveLength(1);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 1, staleWritesRejected: 1, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });
});

describe('fencing counts every grant from what Redis held, whatever the worker records', () => {
  // worker-2 dies right after its SET NX took the lease, before any other line of its job:
  // only the server's own observer of the lock key can know it was granted.
  const killAfterGrant = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];

  it("lease-only: worker-2 killed right after it took the lease: worker-1's write is still stale", async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'fencing', 'lease-only', {}, killAfterGrant);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual({
      maxConcurrentHolders: 2,
      staleWritesAccepted: 1,
      staleWritesRejected: 0,
      finalFence: 1,
      finalWriter: 'worker-1',
    });
    expect(verdict).toBe('fail');
  });

  it("fenced: worker-2 killed before its fence reached the row: the row takes worker-1's stale write, and the verdict says so", async () => {
    const { metrics, verdict } = await play(tested.playground, 'fencing', 'fenced', {}, killAfterGrant);
    expect(metrics).toEqual({
      maxConcurrentHolders: 2,
      staleWritesAccepted: 1,
      staleWritesRejected: 0,
      finalFence: 1,
      finalWriter: 'worker-1',
    });
    expect(verdict).toBe('fail');
  });
});

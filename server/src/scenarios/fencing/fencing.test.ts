// Both fencing variants against the real Redis and PostgreSQL, at their defaults and at
// other parameters. worker-1 is stopped for real (SIGSTOP/SIGCONT); worker-2 moves when
// the server sees the lease gone from Redis; so each verdict is the same on every run.
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

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'fencing', variant, params);

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

describe('fencing honours its parameters', () => {
  it('a pause that ends inside the lease: no overlap, no stale write, both variants pass', async () => {
    const quiet = { ...overlap, maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0 };
    for (const variant of ['lease-only', 'fenced']) {
      const { metrics, verdict, events } = await run(variant, { leaseMs: 5000, pauseMs: 200 }); // seconds to spare however busy the machine
      expect(metrics).toEqual(quiet);
      expect(verdict).toBe('pass');
      // worker-2 got the lease only after worker-1 had written and released it.
      const w1Release = eventsOf(events, 'lease-released', 'worker-1')[0]!;
      expect(w1Release.deleted).toBe(1);
      expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(w1Release.atMs);
    }
  });

  it('the lease expires during the work after a short pause: worker-1 still writes last', async () => {
    const params = { pauseMs: 600, workMs: 800 };
    const broken = await run('lease-only', params);
    expect(broken.metrics).toMatchObject({ maxConcurrentHolders: 2, staleWritesAccepted: 1, finalWriter: 'worker-1' });
    const { metrics, events } = await run('fenced', params);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    // worker-1 finished its work first; its write still comes after worker-2's (held back by
    // the choreography while worker-2 had not written yet, which a busy machine may spare).
    const write = (w: string) => events.find((e) => (e.type === 'write-accepted' || e.type === 'write-rejected') && e.workerId === w)!;
    expect(write('worker-1').seq).toBeGreaterThan(write('worker-2').seq);
    const waits = eventsOf(events, 'wait-finished', 'worker-1').map((e) => e.reason);
    expect(waits.every((reason) => /worker-2, the newer holder, writes first/.test(reason))).toBe(true);
  });

  it('a short lease: worker-2 writes after its own lease expired, which is not stale', async () => {
    const params = { leaseMs: 200, pauseMs: 1000, workMs: 500 };
    const { metrics } = await run('fenced', params);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    const broken = await run('lease-only', params);
    expect(broken.metrics).toEqual({ ...overlap, staleWritesAccepted: 1, staleWritesRejected: 0, finalFence: 1, finalWriter: 'worker-1' });
  });

  it('the pause lasts pauseMs and the lease is what Redis holds', async () => {
    const { events } = await run('fenced', { leaseMs: 3000, pauseMs: 4000, workMs: 100 });
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(4000);
    const seen = eventsOf(events, 'key-observed').find((e) => e.key === 'lock:document' && e.value !== null)!;
    expect(seen.pttlMs).toBeGreaterThan(2500);
    expect(seen.pttlMs).toBeLessThanOrEqual(3000);
    const started = eventsOf(events, 'work-started', 'worker-2')[0]!;
    const finished = eventsOf(events, 'work-finished', 'worker-2')[0]!;
    expect(finished.atMs - started.atMs).toBeGreaterThanOrEqual(100);
  });

  it("a pause that would end at the lease's edge is played past it: the stale write lands every time", async () => {
    // 5 ms before the lease's end: the grant's own round trips would decide it. Played to 50 ms past.
    const { metrics, verdict, events } = await run('lease-only', { leaseMs: 300, pauseMs: 295, workMs: 0 });
    expect(verdict).toBe('fail');
    expect(metrics).toMatchObject({ maxConcurrentHolders: 2, staleWritesAccepted: 1, finalWriter: 'worker-1' });
    expect(eventsOf(events, 'process-paused', 'worker-1')[0]?.plannedMs).toBe(350);
    expect(eventsOf(events, 'note', 'worker-1').map((e) => e.text)).toContainEqual(
      expect.stringMatching(/^choreography: the pause and work would end 5 ms before/),
    );
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = playground.prepare({ scenario: 'fencing', variant: 'fenced', params: { leaseMs: 50 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'leaseMs' must be an integer from 100 to 10000, got 50" });
  });
});

describe('fencing judges writes by what reached the row, whatever the worker says', () => {
  const killAfterWrite = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];

  it('lease-only: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const { metrics, verdict, events } = await play(playground, 'fencing', 'lease-only', {}, killAfterWrite);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 1, staleWritesRejected: 0, finalFence: 1, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });

  it('fenced: worker-1 killed right after its refused write: the refusal is on record, the verdict the same', async () => {
    const { metrics, verdict, events } = await play(playground, 'fencing', 'fenced', {}, killAfterWrite);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...overlap, staleWritesAccepted: 0, staleWritesRejected: 1 });
    expect(verdict).toBe('pass');
  });

  it('a stale write sent straight to the table, around the fenced path, is caught by the row', async () => {
    const { metrics, verdict, events } = await play(playground, 'fencing', 'bypasses-the-fence', {}, undefined, { mutants: true });
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
    const { metrics, verdict, events } = await play(playground, 'fencing', 'lease-only', {}, killAfterGrant);
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
    const { metrics, verdict } = await play(playground, 'fencing', 'fenced', {}, killAfterGrant);
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

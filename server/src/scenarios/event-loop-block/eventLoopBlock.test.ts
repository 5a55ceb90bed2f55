// The event-loop-block variants against the real Redis and PostgreSQL, at their defaults
// and at other parameters. worker-1 blocks its own event loop (no signal); worker-2 moves
// when the server sees the lease gone from Redis; so each verdict is the same on every run.
// The other parameters are in eventLoopBlock.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('event-loop-block');
const { run } = tested;

const staleLanded = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };

describe('event-loop-block at its defaults', () => {
  it('no-watchdog: the lease expires during the block and the stale write lands', async () => {
    const { metrics, verdict, events } = await run('no-watchdog');
    expect(metrics).toEqual(staleLanded);
    expect(verdict).toBe('fail');
    // No signal: the server never paused or killed anyone.
    expect(eventsOf(events, 'process-paused')).toHaveLength(0);
    expect(eventsOf(events, 'process-killed')).toHaveLength(0);
    const [blockStart] = eventsOf(events, 'event-loop-blocked', 'worker-1');
    const [blockEnd] = eventsOf(events, 'event-loop-unblocked', 'worker-1');
    expect(blockEnd!.atMs - blockStart!.atMs).toBeGreaterThanOrEqual(1500);
    expect(blockEnd!.blockedMs).toBeGreaterThanOrEqual(1500);
    // worker-2 got the lease before worker-1, unblocked, wrote on the lease it had lost. (Its
    // grant usually falls inside the block; on a loaded machine the server may see the
    // lease gone a little after the block ends, which changes nothing of the story.)
    const [stale] = eventsOf(events, 'write-accepted', 'worker-1');
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeLessThan(stale!.atMs);
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
    expect(eventsOf(events, 'row-observed').at(-1)?.value).toBe('worker-1 · fence 1');
  });

  it('watchdog: the timer cannot fire in a blocked loop, so it fails the same way', async () => {
    const { metrics, verdict, events } = await run('watchdog');
    expect(metrics).toEqual(staleLanded);
    expect(verdict).toBe('fail');
    // The watchdog's first tick after the block finds the lease gone.
    const blockEnd = eventsOf(events, 'event-loop-unblocked', 'worker-1')[0]!;
    const notes = eventsOf(events, 'note', 'worker-1');
    expect(notes).toEqual([expect.objectContaining({ text: 'watchdog: the lease was gone when it could renew it' })]);
    expect(notes[0]!.atMs).toBeGreaterThanOrEqual(blockEnd.atMs);
  });

  it("watchdog-fenced: the same overlap, but Postgres rejects worker-1's stale write", async () => {
    const { metrics, verdict, events } = await run('watchdog-fenced');
    expect(metrics).toEqual({ maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(eventsOf(events, 'row-observed').at(-1)?.value).toBe('worker-2 · fence 2');
  });
});

describe('event-loop-block judges writes by what reached the row, whatever the worker says', () => {
  const killAfterWrite = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];

  it('no-watchdog: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'event-loop-block', 'no-watchdog', {}, killAfterWrite);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual(staleLanded);
    expect(verdict).toBe('fail');
  });

  it('watchdog-fenced: worker-1 killed right after its refused write: the refusal is on record', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'event-loop-block', 'watchdog-fenced', {}, killAfterWrite);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' });
    expect(verdict).toBe('pass');
  });
});

describe('event-loop-block counts every grant from what Redis held, whatever the worker records', () => {
  it("no-watchdog: worker-2 killed right after it took the lease: worker-1's write is still stale", async () => {
    // worker-2 dies before any other line of its job: only the server's observer of the lock key knows it was granted.
    const killAfterGrant = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'event-loop-block', 'no-watchdog', {}, killAfterGrant);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual(staleLanded);
    expect(verdict).toBe('fail');
  });
});

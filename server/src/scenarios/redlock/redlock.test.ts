// Both redlock variants against five real redis-servers started for each run, the real
// main Redis and PostgreSQL, at their defaults and at other parameters. worker-1 is
// stopped for real (SIGSTOP/SIGCONT), node-3's clock jump moves its redis-server's own wall
// clock (the wall clock shim; without it, its key's expiry), and a node out of reach is a
// real silent socket; so each verdict is the same on every run.
// The other parameters are in redlock.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { faultsOf } from '@racelab/shared';
import { detectLabMechanisms, MECHANISM } from '../../labnet/mechanisms.js';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('redlock');
const { run } = tested;

const stale = { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' };
const fenced = { maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' };
const quiet = { maxConcurrentHolders: 1, staleWritesAccepted: 0, staleWritesRejected: 0, finalWriter: 'worker-2' };
const notes = (events: Parameters<typeof eventsOf>[0], workerId: string) => eventsOf(events, 'note', workerId).map((e) => e.text);
/** Where a worker's first event of a type stands in the run's log. */
const seqOf = (events: Parameters<typeof eventsOf>[0], type: Parameters<typeof eventsOf>[1], workerId: string) =>
  eventsOf(events, type, workerId)[0]!.seq;

describe('redlock at its defaults', () => {
  it('redlock: both workers win a majority, and the stale write lands', async () => {
    const { metrics, verdict, events } = await run('redlock');
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
    // A majority of the five real nodes, each time: all five, as every node is reachable.
    expect(notes(events, 'worker-1')[0]).toMatch(/^5 of 5 nodes said yes/);
    expect(notes(events, 'worker-2')[0]).toMatch(/^5 of 5 nodes said yes/);
    const paused = eventsOf(events, 'process-paused', 'worker-1');
    expect(paused).toEqual([expect.objectContaining({ plannedMs: 2500 })]);
    // worker-2 got its majority while worker-1 was stopped: it asks only after worker-1's
    // grant, which worker-1 signals just before the stop, and only once the lock has left node-5.
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(paused[0]!.atMs);
    // worker-1's stale write came after worker-2's work and write: the choreography holds it
    // back until worker-2 has written (the log's order is causal here; which write stayed is
    // the row's to say: finalWriter above).
    expect(seqOf(events, 'work-finished', 'worker-2')).toBeLessThan(seqOf(events, 'write-accepted', 'worker-1'));
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
    // The server saw every node hand the lock from worker-1 to worker-2.
    const node5 = eventsOf(events, 'row-observed')
      .filter((e) => e.target === 'node-5 lock')
      .map((e) => e.value);
    expect(node5).toEqual(expect.arrayContaining(['worker-1', 'worker-2']));
    expect(node5.indexOf('worker-1')).toBeLessThan(node5.indexOf('worker-2'));
  });

  it('redlock-fenced: the same two holders, but PostgreSQL refuses the stale write', async () => {
    const { metrics, verdict, events } = await run('redlock-fenced');
    expect(metrics).toEqual(fenced);
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(
      eventsOf(events, 'row-observed')
        .filter((e) => e.target === 'document')
        .at(-1)?.value,
    ).toBe('worker-2 · fence 2');
  });
});

describe('redlock: a clock jump on one node', () => {
  const jump = { clockJumpMs: 1000, pauseMs: 0, reach: 'split' };

  it('in a split, the jump alone gives a second majority, with no pause at all', async () => {
    const { metrics, events } = await run('redlock', jump);
    expect(metrics).toEqual(stale);
    expect(eventsOf(events, 'process-paused')).toEqual([]);
    expect(notes(events, 'worker-1')[0]).toMatch(/^3 of 5 nodes said yes \(node-1, node-2, node-3\)/);
    expect(notes(events, 'worker-2')[0]).toMatch(/^3 of 5 nodes said yes \(node-3, node-4, node-5\)/);
    // Played by worker-1's process, on node-3's own clock where the shim builds here; the row reads the clock off the node.
    const jumped = detectLabMechanisms().wallClockShim ? MECHANISM.wallClockShim : MECHANISM.simulatedExpiry;
    expect(faultsOf(events).filter((f) => f.fault === 'clock-jump')).toEqual([
      expect.objectContaining({ workerId: 'worker-1', target: 'node-3 +1000 ms', mechanism: jumped }),
    ]);
    const clockRow = eventsOf(events, 'row-observed').filter((e) => e.target === 'node-3 clock');
    expect(clockRow.at(-1)?.value).toBe('+1000 ms');
    // worker-2 got its majority while worker-1, never paused, still held its first one: the
    // two held a grant together at worker-1's write (maxConcurrentHolders above), and worker-2's grant
    // is in the log before worker-1's write, which the choreography holds back until
    // worker-2 has written (causal order, not two processes' clocks).
    expect(seqOf(events, 'lease-acquired', 'worker-2')).toBeLessThan(seqOf(events, 'write-accepted', 'worker-1'));
    const fencedRun = await run('redlock-fenced', jump);
    expect(fencedRun.metrics).toEqual(fenced);
    expect(fencedRun.verdict).toBe('pass');
  });

  it('with every node reachable, the same jump leaves worker-1 four nodes and worker-2 waits', async () => {
    // The jump as long as the lease again, which empties node-3; a long lease, so worker-1's
    // four keys outlive its work and write by seconds however busy the machine.
    const { metrics, verdict, events } = await run('redlock', { leaseMs: 5000, clockJumpMs: 5000, pauseMs: 0 });
    expect(metrics).toEqual(quiet);
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(4);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThan(
      eventsOf(events, 'lease-released', 'worker-1')[0]!.atMs,
    );
  });

  it('a jump smaller than the time left after the work changes nothing, even in a split', async () => {
    // node-3's key keeps seconds more than the work and the write need, however busy the machine.
    const { metrics } = await run('redlock', { leaseMs: 5000, clockJumpMs: 300, pauseMs: 0, reach: 'split', workMs: 100 });
    expect(metrics).toEqual(quiet);
  });
});

describe('redlock judges writes by what reached the row, whatever the worker says', () => {
  it('redlock: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const kill = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'redlock', 'redlock', {}, kill);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
  });
});

describe('redlock counts every grant from what the nodes held, whatever the worker records', () => {
  it('redlock: worker-2 killed right after it won its majority: worker-1 still writes as one of two holders', async () => {
    // worker-2 dies before any other line of its job: only the server, watching the five nodes, knows it was granted.
    const killAfterGrant = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'redlock', 'redlock', {}, killAfterGrant);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual(stale);
    expect(verdict).toBe('fail');
  });
});

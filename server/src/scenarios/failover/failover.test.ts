// Every failover variant against a real Redis primary, real replicas and a real Sentinel
// (started per run), and the real PostgreSQL, at its defaults and at other parameters.
// The primary is killed for real once worker-1 has decided about its lock, and worker-2
// arrives once Sentinel has promoted a replica, so each verdict is the same on every run.
// The other parameters are in failover.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('failover');
const { run } = tested;

/** What a truth lane showed, in order: the lab's parts each under their own store, the row under PostgreSQL. */
const lane = (events: RunEvent[], store: string, target: string): Array<string | null> =>
  eventsOf(events, 'row-observed')
    .filter((e) => e.store === store && e.target === target)
    .map((e) => e.value);
const firstSeen = (events: RunEvent[], store: string, target: string, value: string): number =>
  eventsOf(events, 'row-observed').find((e) => e.store === store && e.target === target && e.value === value)!.atMs;

const twoHolders = { maxConcurrentHolders: 2, replicaHadKeyAtFailover: 'no' };

describe('failover at its defaults', () => {
  it('plain-lock: the promoted replica never had the key, worker-2 takes the lock, the stale write lands', async () => {
    const { metrics, verdict, events } = await run('plain-lock');
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
    // What the nodes held: worker-1's key never reached the far replica; the primary died.
    const token = eventsOf(events, 'lease-acquired', 'worker-1')[0]!.token!;
    expect(lane(events, 'Redis node', 'far replica').filter((v) => v?.includes(token))).toEqual([]);
    expect(lane(events, 'Redis node', 'far replica').at(-1)).toBe('primary · no lock key');
    expect(lane(events, 'Redis node', 'primary').at(-1)).toBe('dead (SIGKILL)');
    expect(lane(events, 'Network', 'link to the far replica').at(-1)).toMatch(/^cut · \d+ bytes never arrived$/);
    expect(lane(events, 'Sentinel', 'names as primary')).toEqual(['primary', 'far replica']);
    // worker-2 took the lock only after Sentinel named the far replica, while worker-1 still held it.
    const granted = eventsOf(events, 'lease-acquired', 'worker-2')[0]!;
    expect(granted.atMs).toBeGreaterThan(firstSeen(events, 'Redis node', 'primary', 'dead (SIGKILL)'));
    expect(eventsOf(events, 'note', 'worker-2')[0]?.text).toMatch(/did not have the lock key/);
    expect(eventsOf(events, 'lease-released', 'worker-1')[0]?.deleted).toBe(0);
  });

  it('wait-replica: the near replica confirmed the lock, then died with the primary', async () => {
    const { metrics, verdict, events } = await run('wait-replica');
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
    expect(eventsOf(events, 'note', 'worker-1')[0]?.text).toBe('WAIT 1 1000: 1 replica(s) acknowledged the lock');
    expect(lane(events, 'Redis node', 'near replica').at(-1)).toBe('dead (SIGKILL)');
    expect(lane(events, 'Redis node', 'far replica').filter((v) => v?.includes('worker-1'))).toEqual([]);
    // On the promoted replica, worker-2's WAIT is confirmed too: by the far replica's own replica.
    expect(eventsOf(events, 'note', 'worker-2').map((e) => e.text)).toContain('WAIT 1 1000: 1 replica(s) acknowledged the lock');
  });

  it("pg-fence: the same two holders, but PostgreSQL rejects worker-1's stale write", async () => {
    const { metrics, verdict, events } = await run('pg-fence');
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-1', 1],
      ['worker-2', 2],
    ]);
    expect(eventsOf(events, 'write-rejected', 'worker-1')).toEqual([expect.objectContaining({ fence: 1 })]);
    expect(lane(events, 'PostgreSQL', 'document').at(-1)).toBe('worker-2 · fence 2');
  });
});

describe('failover judges writes by what reached the row, whatever the worker says', () => {
  it('plain-lock: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const kill = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'failover', 'plain-lock', {}, kill);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });

  it('pg-fence with a stale write sent straight to the table, around the fence: the row catches it', async () => {
    const { metrics, verdict, events } = await play(tested.playground, 'failover', 'bypasses-the-fence', {}, undefined, { mutants: true });
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 1, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });
});

describe('failover counts every grant from what the nodes held, whatever the worker records', () => {
  it('plain-lock: worker-2 killed right after the promoted replica granted it the lock: worker-1 still writes as one of two holders', async () => {
    // worker-2 dies before any other line of its job: only the server, watching the lab's nodes, knows it was granted.
    const kill = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'failover', 'plain-lock', {}, kill);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });
});

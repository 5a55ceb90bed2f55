// Every failover variant against a real Redis primary, real replicas and a real Sentinel
// (started per run), and the real PostgreSQL, at its defaults and at other parameters.
// The primary is killed for real once worker-1 has decided about its lock, and worker-2
// arrives once Sentinel has promoted a replica, so each verdict is the same on every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground();
});
afterAll(async () => {
  await playground.close();
});

const run = (variant: string, params: Record<string, unknown> = {}) => play(playground, 'failover', variant, params);

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

describe('failover honours its parameters', () => {
  it('wait-replica when the primary dies alone: WAIT times out, worker-1 refuses the lock, one holder', async () => {
    const { metrics, verdict, events } = await run('wait-replica', { outage: 'primary', waitTimeoutMs: 400 });
    expect(metrics).toEqual({
      maxConcurrentHolders: 1,
      staleWritesAccepted: 0,
      staleWritesRejected: 0,
      replicaHadKeyAtFailover: 'no',
      finalWriter: 'worker-2',
    });
    expect(verdict).toBe('pass');
    const asked = eventsOf(events, 'lease-requested', 'worker-1')[0]!;
    const waited = eventsOf(events, 'note', 'worker-1')[0]!;
    expect(waited.text).toBe('WAIT 1 400: 0 replica(s) acknowledged the lock');
    expect(waited.atMs - asked.atMs).toBeGreaterThanOrEqual(390);
    expect(eventsOf(events, 'job-skipped', 'worker-1')[0]?.reason).toBe('no replica confirmed the lock');
    expect(eventsOf(events, 'lease-acquired', 'worker-1')).toHaveLength(0);
  });

  it('no replication lag: the promoted replica has the key and worker-2 is turned away', async () => {
    for (const [variant, outage] of [
      ['plain-lock', 'primary'],
      ['wait-replica', 'zone'],
    ] as const) {
      const { metrics, verdict, events } = await run(variant, { lag: 'none', outage });
      expect(metrics).toEqual({
        maxConcurrentHolders: 1,
        staleWritesAccepted: 0,
        staleWritesRejected: 0,
        replicaHadKeyAtFailover: 'yes',
        finalWriter: 'worker-1',
      });
      expect(verdict).toBe('pass');
      const token = eventsOf(events, 'lease-acquired', 'worker-1')[0]!.token;
      expect(eventsOf(events, 'lease-denied', 'worker-2')).toEqual([expect.objectContaining({ heldBy: token })]);
    }
  });

  it('plain-lock and pg-fence when the whole zone goes down, with no work', async () => {
    const broken = await run('plain-lock', { outage: 'zone', workMs: 0 });
    expect(broken.metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    const fenced = await run('pg-fence', { outage: 'zone', workMs: 0 });
    expect(fenced.metrics).toEqual({ ...twoHolders, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' });
  });

  it('Sentinel waits downAfterMs before it fails over, and the work lasts workMs', async () => {
    const { metrics, events } = await run('pg-fence', { downAfterMs: 1500, workMs: 600 });
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2' });
    const died = firstSeen(events, 'Redis node', 'primary', 'dead (SIGKILL)');
    expect(firstSeen(events, 'Sentinel', 'names as primary', 'far replica') - died).toBeGreaterThanOrEqual(1500);
    const started = eventsOf(events, 'work-started', 'worker-2')[0]!;
    const finished = eventsOf(events, 'work-finished', 'worker-2')[0]!;
    expect(finished.atMs - started.atMs).toBeGreaterThanOrEqual(600);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = playground.prepare({ scenario: 'failover', variant: 'plain-lock', params: { downAfterMs: 100 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'downAfterMs' must be an integer from 300 to 10000, got 100" });
    const zone = playground.prepare({ scenario: 'failover', variant: 'plain-lock', params: { outage: 'region' } });
    expect(zone).toEqual({ ok: false, error: "parameter 'outage' must be one of primary, zone, got region" });
  });
});

describe('failover judges writes by what reached the row, whatever the worker says', () => {
  it('plain-lock: worker-1 killed right after its stale write, before a word of it: still a stale write', async () => {
    const kill = [{ checkpoint: 'after-write', target: 'worker-1', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(playground, 'failover', 'plain-lock', {}, kill);
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });

  it('pg-fence with a stale write sent straight to the table, around the fence: the row catches it', async () => {
    const { metrics, verdict, events } = await play(playground, 'failover', 'bypasses-the-fence', {}, undefined, { mutants: true });
    expect(eventsOf(events, 'write-accepted', 'worker-1')).toEqual([]);
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 1, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });
});

describe('failover counts every grant from what the nodes held, whatever the worker records', () => {
  it('plain-lock: worker-2 killed right after the promoted replica granted it the lock: worker-1 still writes as one of two holders', async () => {
    // worker-2 dies before any other line of its job: only the server, watching the lab's nodes, knows it was granted.
    const kill = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(playground, 'failover', 'plain-lock', {}, kill);
    expect(eventsOf(events, 'lease-acquired', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(metrics).toEqual({ ...twoHolders, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' });
    expect(verdict).toBe('fail');
  });
});

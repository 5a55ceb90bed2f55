// Every failover variant against a real Redis primary, real replicas and a real Sentinel
// (started per run), and the real PostgreSQL, at its defaults and at other parameters.
// The primary is killed for real once worker-1 has decided about its lock, and worker-2
// arrives once Sentinel has promoted a replica, so each verdict is the same on every run.
// This file holds the parameters; failover.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('failover');
const { run } = tested;

const firstSeen = (events: RunEvent[], store: string, target: string, value: string): number =>
  eventsOf(events, 'row-observed').find((e) => e.store === store && e.target === target && e.value === value)!.atMs;

const twoHolders = { maxConcurrentHolders: 2, replicaHadKeyAtFailover: 'no' };

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
    const bad = tested.playground.prepare({ scenario: 'failover', variant: 'plain-lock', params: { downAfterMs: 100 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'downAfterMs' must be an integer from 300 to 10000, got 100" });
    const zone = tested.playground.prepare({ scenario: 'failover', variant: 'plain-lock', params: { outage: 'region' } });
    expect(zone).toEqual({ ok: false, error: "parameter 'outage' must be one of primary, zone, got region" });
  });
});

// The cron-every-replica variants against the real Redis and PostgreSQL and a real croner job
// in every replica, at their defaults: three replicas whose clocks are 300 ms apart (moved by
// libfaketime where the machine has it) fire for the same one-second slot, in the order their
// clocks reach it; waits hold back only what scheduling noise could reorder, so each count is
// the same on every run. The declared sets and other parameters are in
// cronEveryReplica.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const { run } = scenarioUnderTest('cron-every-replica');

/** lock-per-slot's key: the report and the slot, an even second ("lock:report:02:31:04"). */
const SLOT_LOCK = /^lock:report:\d\d:\d\d:\d\d$/;

describe('cron-every-replica at its defaults', () => {
  it('every-replica: croner fires on all three replicas and each sends the report', async () => {
    const { metrics, verdict, events } = await run('every-replica');
    expect(metrics).toEqual({ reportsSent: 3, firings: 3 });
    expect(verdict).toBe('fail');
    // Each replica fired by its own clock, in the order of their clocks, 300 ms apart in real time.
    const fired = eventsOf(events, 'job-fired');
    expect(fired.map((e) => e.workerId)).toEqual(['replica-1', 'replica-2', 'replica-3']);
    expect(fired[2]!.atMs - fired[0]!.atMs).toBeGreaterThan(0);
    expect(eventsOf(events, 'clock-skewed').map((e) => [e.workerId, e.offsetMs, e.reference])).toEqual([
      ['replica-2', -300, 'replica-1'],
      ['replica-3', -600, 'replica-1'],
    ]);
    // All three sent the report of the same slot, the one croner fired for.
    const sent = eventsOf(events, 'write-accepted').map((e) => String(e.value));
    expect(sent.map((v) => v.split(' by ')[1])).toEqual(['replica-1', 'replica-2', 'replica-3']);
    expect(new Set(sent.map((v) => v.split(' by ')[0])).size).toBe(1);
    expect(eventsOf(events, 'row-observed').at(-1)?.value).toMatch(/^\d\d:\d\d:\d\d: replica-1, replica-2, replica-3$/);
  });

  it('lock-per-slot: the slot key outlives the report, so the late replicas find it and skip', async () => {
    const { metrics, verdict, events } = await run('lock-per-slot');
    expect(metrics).toEqual({ reportsSent: 1, firings: 3 });
    expect(verdict).toBe('pass');
    const acquired = eventsOf(events, 'lease-acquired');
    expect(acquired.map((e) => e.workerId)).toEqual(['replica-1']);
    expect(acquired[0]!.key).toMatch(SLOT_LOCK);
    // The lease runs to the end of the two-second slot: never released.
    expect(acquired[0]!.ttlMs).toBeGreaterThan(1000);
    expect(acquired[0]!.ttlMs).toBeLessThanOrEqual(2000);
    expect(eventsOf(events, 'lease-released')).toHaveLength(0);
    expect(eventsOf(events, 'lease-denied').map((e) => [e.workerId, e.key, e.heldBy])).toEqual([
      ['replica-2', acquired[0]!.key, 'replica-1'],
      ['replica-3', acquired[0]!.key, 'replica-1'],
    ]);
  });

  it('unique-slot-row: one insert of the slot lands, and only that replica sends', async () => {
    const { metrics, verdict, events } = await run('unique-slot-row');
    expect(metrics).toEqual({ reportsSent: 1, firings: 3 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'write-rejected').map((e) => [e.workerId, e.target])).toEqual([
      ['replica-2', 'slot_claims'],
      ['replica-3', 'slot_claims'],
    ]);
    expect(eventsOf(events, 'job-skipped').map((e) => e.workerId)).toEqual(['replica-2', 'replica-3']);
  });
});

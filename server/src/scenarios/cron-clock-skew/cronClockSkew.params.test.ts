// Both cron-clock-skew variants against the real Redis and PostgreSQL, at their defaults
// and at other skews, job lengths, node counts and schedule periods. Nodes try the lock in
// the order their clocks fire, and waits hold back only what scheduling noise could
// reorder, so each verdict is the same on every run.
// This file holds the parameters; cronClockSkew.test.ts the defaults. `npm run test:full` runs it.
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('cron-clock-skew');
const { run } = tested;

describe('cron-clock-skew honours its parameters', () => {
  it('a skew shorter than the job: the lock is still held when node-2 fires, so even the broken variant runs once', async () => {
    for (const variant of ['release-when-done', 'lock-per-slot']) {
      const { metrics, verdict, events } = await run(variant, { skewMs: 100, jobMs: 400 });
      expect(metrics).toEqual({ runsPerSlot: 1, maxConcurrentRuns: 1 });
      expect(verdict).toBe('pass');
      expect(eventsOf(events, 'job-skipped', 'node-2')).toHaveLength(1);
    }
  });

  it('four nodes 400 ms apart and a 100 ms job: the broken variant runs the slot four times', async () => {
    const broken = await run('release-when-done', { nodes: 4, skewMs: 400, jobMs: 100 });
    expect(broken.metrics).toEqual({ runsPerSlot: 4, maxConcurrentRuns: 1 });
    // Each node reports its own clock against node-1's, the reference, which reports none.
    expect(eventsOf(broken.events, 'clock-skewed').map((e) => [e.workerId, e.offsetMs, e.reference])).toEqual([
      ['node-2', -400, 'node-1'],
      ['node-3', -800, 'node-1'],
      ['node-4', -1200, 'node-1'],
    ]);
    const correct = await run('lock-per-slot', { nodes: 4, skewMs: 400, jobMs: 100 });
    expect(correct.metrics).toEqual({ runsPerSlot: 1, maxConcurrentRuns: 1 });
    expect(eventsOf(correct.events, 'job-skipped')).toHaveLength(3);
  });

  it('three nodes 200 ms apart and a 300 ms job: node-2 finds it running, node-3 finds it released', async () => {
    const { metrics, events } = await run('release-when-done', { nodes: 3, skewMs: 200, jobMs: 300 });
    expect(metrics).toEqual({ runsPerSlot: 2, maxConcurrentRuns: 1 });
    expect(eventsOf(events, 'job-skipped').map((e) => e.workerId)).toEqual(['node-2']);
    expect(eventsOf(events, 'lease-acquired').map((e) => e.workerId)).toEqual(['node-1', 'node-3']);
  });

  it('clocks in step and an instant job: the second node still fires after the release', async () => {
    const broken = await run('release-when-done', { skewMs: 0, jobMs: 0 });
    expect(broken.metrics.runsPerSlot).toBe(2);
    const correct = await run('lock-per-slot', { skewMs: 0, jobMs: 0 });
    expect(correct.metrics.runsPerSlot).toBe(1);
  });

  it('a skew longer than the slot: the slot lock has expired too, and the slot runs twice (its honest limit)', async () => {
    const { metrics, verdict, events } = await run('lock-per-slot', { slotMs: 600, skewMs: 900, jobMs: 100 });
    expect(metrics).toEqual({ runsPerSlot: 2, maxConcurrentRuns: 1 });
    expect(verdict).toBe('fail');
    const acquired = eventsOf(events, 'lease-acquired');
    expect(acquired.map((e) => e.workerId)).toEqual(['node-1', 'node-2']);
    // node-2's SET NX could only succeed once Redis had expired node-1's key, which lived
    // ttlMs from no earlier than node-1 sent its SET; node-2 heard back after that.
    const [first, second] = acquired;
    expect(second!.atMs).toBeGreaterThan(first!.fromMs! + first!.ttlMs!);
  });

  it("the guard's edge, from the parameters: a key ending 100 ms after the last node is due is held, 90 ms is let expire", async () => {
    // Four nodes 300 ms apart in a 1 s slot: node-4 is due 900 ms in, 100 ms before the key ends.
    const held = await run('lock-per-slot', { nodes: 4, skewMs: 300, jobMs: 1000, slotMs: 1000 });
    expect(held.metrics).toEqual({ runsPerSlot: 1, maxConcurrentRuns: 1 });
    expect(held.verdict).toBe('pass');
    expect(held.outcome.status === 'finished' && held.outcome.expected).toEqual({ verdict: 'pass' });
    const edge = await run('lock-per-slot', { nodes: 2, skewMs: 900, jobMs: 0, slotMs: 1000 });
    expect(edge.metrics.runsPerSlot).toBe(1);
    // 910 ms late: the key ends 90 ms after node-2 is due, and the story is the expired one.
    const expired = await run('lock-per-slot', { nodes: 2, skewMs: 910, jobMs: 0, slotMs: 1000 });
    expect(expired.metrics.runsPerSlot).toBe(2);
    expect(expired.outcome.status === 'finished' && expired.outcome.expected).toMatchObject({ verdict: 'fail' });
    expect(eventsOf(expired.events, 'wait-started').map((e) => e.reason)).toEqual([
      expect.stringMatching(/^choreography: the lock ends \d+ ms after this node was due \(less than 100 ms\), let it$/),
    ]);
  }, 60_000);

  it("the guard's edge to the millisecond: a key ending 99 or 96 ms after node-2 is due is let expire, every time", async () => {
    // The holder's SET reaches Redis a little after the node chose its lease, so a reading of
    // the key's life comes out a few ms long: the story must come from the lease it asked for.
    for (const skewMs of [901, 904, 901]) {
      const { metrics, outcome, events } = await run('lock-per-slot', { nodes: 2, skewMs, jobMs: 0, slotMs: 1000 });
      expect(metrics.runsPerSlot, `skewMs ${skewMs}`).toBe(2);
      expect(outcome.status === 'finished' && outcome.expected).toMatchObject({ verdict: 'fail' });
      // node-2 lets the key expire, or (woken late by a busy machine) finds it gone already.
      const waits = eventsOf(events, 'wait-started').map((e) => e.reason);
      expect([[], [`choreography: the lock ends ${1000 - skewMs} ms after this node was due (less than 100 ms), let it`]]).toContainEqual(
        waits,
      );
    }
  }, 60_000);

  it('a skew well inside a short slot is still covered', async () => {
    const { metrics } = await run('lock-per-slot', { slotMs: 3000, skewMs: 900, jobMs: 100 });
    expect(metrics).toEqual({ runsPerSlot: 1, maxConcurrentRuns: 1 });
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'cron-clock-skew', variant: 'lock-per-slot', params: { nodes: 5 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'nodes' must be an integer from 2 to 4, got 5" });
  });
});

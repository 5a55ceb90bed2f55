// Both cron-clock-skew variants against the real Redis and PostgreSQL, at their defaults
// and at other skews, job lengths, node counts and schedule periods. Nodes try the lock in
// the order their clocks fire, and waits hold back only what scheduling noise could
// reorder, so each verdict is the same on every run.
// The other parameters are in cronClockSkew.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('cron-clock-skew');
const { run } = tested;

const SLOT_KEY = 'lock:invoice-batch:slot-0';

describe('cron-clock-skew at its defaults', () => {
  it('release-when-done: node-2 fires after the release and bills the slot again', async () => {
    const { metrics, verdict, events } = await run('release-when-done');
    expect(metrics).toEqual({ runsPerSlot: 2, maxConcurrentRuns: 1 });
    expect(verdict).toBe('fail');
    const released = eventsOf(events, 'lease-released', 'node-1')[0]!;
    expect(released.deleted).toBe(1);
    // node-2 fired a second after the slot's start (its clock is late), after node-1's release.
    const fired = eventsOf(events, 'job-fired', 'node-2')[0]!;
    expect(fired.atMs).toBeGreaterThanOrEqual(1000);
    expect(fired.atMs).toBeGreaterThan(released.atMs);
    expect(eventsOf(events, 'clock-skewed')).toEqual([
      expect.objectContaining({ workerId: 'node-2', offsetMs: -1000, reference: 'node-1' }),
    ]);
    expect(eventsOf(events, 'lease-acquired').map((e) => [e.workerId, e.key])).toEqual([
      ['node-1', SLOT_KEY],
      ['node-2', SLOT_KEY],
    ]);
    expect(eventsOf(events, 'row-observed').at(-1)?.value).toBe('slot-0: node-1, node-2');
  });

  it('lock-per-slot: the key outlives the job, so node-2 finds the slot taken and skips', async () => {
    const { metrics, verdict, events } = await run('lock-per-slot');
    expect(metrics).toEqual({ runsPerSlot: 1, maxConcurrentRuns: 1 });
    expect(verdict).toBe('pass');
    expect(eventsOf(events, 'lease-released')).toHaveLength(0);
    expect(eventsOf(events, 'job-skipped', 'node-2')).toHaveLength(1);
    expect(eventsOf(events, 'lease-denied', 'node-2')[0]).toMatchObject({ key: SLOT_KEY, heldBy: 'node-1' });
    // The lock's lease runs to the end of the one-minute slot.
    const ttl = eventsOf(events, 'lease-acquired', 'node-1')[0]!.ttlMs!;
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const last = eventsOf(events, 'key-observed')
      .filter((e) => e.key === SLOT_KEY)
      .at(-1)!;
    expect(last.value).toBe('node-1');
    expect(last.pttlMs).toBeGreaterThan(55_000);
  });
});

describe('cron-clock-skew counts the rows, not what the nodes said', () => {
  it('node-1 killed right after its batch row: its run still counts, and as still going', async () => {
    // The slot is shorter than the skew, so node-2 runs the slot again. node-1 dies before
    // it can record the end of its batch: its row stays open, as far as anyone can tell
    // still billing, so the two runs count as overlapping and the verdict stays red.
    const params = { slotMs: 600, skewMs: 900, jobMs: 100 };
    const kill = [{ checkpoint: 'after-batch-row', target: 'node-1', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'cron-clock-skew', 'lock-per-slot', params, kill);
    expect(eventsOf(events, 'process-killed', 'node-1')).toHaveLength(1);
    expect(eventsOf(events, 'work-finished', 'node-1')).toHaveLength(0);
    expect(metrics).toEqual({ runsPerSlot: 2, maxConcurrentRuns: 2 });
    expect(verdict).toBe('fail');
  });
});

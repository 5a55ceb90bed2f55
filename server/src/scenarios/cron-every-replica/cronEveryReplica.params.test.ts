// The cron-every-replica variants against the real Redis and PostgreSQL and a real croner job
// in every replica, at their declared sets and other replica counts, skews and report lengths,
// and each near-miss red where it fails. Replicas try in the order their clocks fire, and waits
// hold back only what scheduling noise could reorder, so each verdict is the same on every run.
// This file holds the parameters; cronEveryReplica.test.ts the defaults. `npm run test:full` runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectLabMechanisms, MECHANISM } from '../../labnet/mechanisms.js';
import type { Playground } from '../../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('cron-every-replica');
const { run, mutant } = tested;

describe('cron-every-replica at its declared sets', () => {
  it('three replicas 1.3 s apart: the lock has expired for the last, 2.6 s late, the unique row still holds', async () => {
    const params = { replicas: 3, skewMs: 1300 };
    const broken = await run('every-replica', params);
    expect(broken.metrics).toEqual({ reportsSent: 3, firings: 3 });
    const lock = await run('lock-per-slot', params);
    expect(lock.metrics).toEqual({ reportsSent: 2, firings: 3 });
    expect(lock.verdict).toBe('fail');
    // Its honest limit, said from the parameters: the run expected the red verdict.
    expect(lock.outcome.status === 'finished' && lock.outcome.expected).toMatchObject({ verdict: 'fail' });
    // replica-2, 1.3 s late, finds the key; replica-3, 2.6 s late, takes the same slot's key again.
    expect(eventsOf(lock.events, 'lease-denied').map((e) => e.workerId)).toEqual(['replica-2']);
    const acquired = eventsOf(lock.events, 'lease-acquired');
    expect(acquired.map((e) => e.workerId)).toEqual(['replica-1', 'replica-3']);
    expect(acquired[1]!.key).toBe(acquired[0]!.key);
    expect(acquired[1]!.atMs).toBeGreaterThan(acquired[0]!.fromMs! + acquired[0]!.ttlMs!);
    const row = await run('unique-slot-row', params);
    expect(row.metrics).toEqual({ reportsSent: 1, firings: 3 });
    expect(row.verdict).toBe('pass');
  });

  it('four replicas whose clocks agree: all fire at once, and one report is sent by either guard', async () => {
    const params = { replicas: 4, skewMs: 0, jobMs: 500 };
    const broken = await run('every-replica', params);
    expect(broken.metrics).toEqual({ reportsSent: 4, firings: 4 });
    expect(eventsOf(broken.events, 'clock-skewed')).toHaveLength(0);
    for (const variant of ['lock-per-slot', 'unique-slot-row']) {
      const { metrics, verdict, events } = await run(variant, params);
      expect(metrics, variant).toEqual({ reportsSent: 1, firings: 4 });
      expect(verdict).toBe('pass');
      expect(eventsOf(events, 'job-skipped').map((e) => e.workerId)).toEqual(['replica-2', 'replica-3', 'replica-4']);
    }
  });
});

describe('cron-every-replica honours its parameters', () => {
  it('two replicas whose clocks agree: the report is sent twice without a guard', async () => {
    const { metrics } = await run('every-replica', { replicas: 2, skewMs: 0 });
    expect(metrics).toEqual({ reportsSent: 2, firings: 2 });
  });

  it('four replicas 200 ms apart and an instant report: the lock per slot still covers a clock 600 ms late', async () => {
    const { metrics, events } = await run('lock-per-slot', { replicas: 4, skewMs: 200, jobMs: 0 });
    expect(metrics).toEqual({ reportsSent: 1, firings: 4 });
    expect(eventsOf(events, 'clock-skewed').map((e) => e.offsetMs)).toEqual([-200, -400, -600]);
  });

  it('refuses the lock per slot where a replica would fire as its lock ends, and says why', () => {
    const refused = tested.playground.prepare({ scenario: 'cron-every-replica', variant: 'lock-per-slot', params: { skewMs: 900 } });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/replica-3 fires 1800 ms after the slot starts, within 300 ms of its lock's end/);
  });

  it('rejects parameters out of bounds, naming them', () => {
    const bad = tested.playground.prepare({ scenario: 'cron-every-replica', variant: 'every-replica', params: { replicas: 5 } });
    expect(bad).toEqual({ ok: false, error: "parameter 'replicas' must be an integer from 2 to 4, got 5" });
  });
});

describe('cron-every-replica with replica-1 killed as it starts the report', () => {
  const killed = [{ checkpoint: 'sending', target: 'replica-1', action: 'kill' as const }];

  it('without a guard the two others send it; a lock or a claim the dead replica took keeps them out, and nobody sends it', async () => {
    for (const [variant, reportsSent] of [
      ['every-replica', 2],
      ['lock-per-slot', 0],
      ['unique-slot-row', 0],
    ] as const) {
      const { metrics, events } = await play(tested.playground, 'cron-every-replica', variant, {}, killed);
      expect(metrics, variant).toEqual({ reportsSent, firings: 3 });
      expect(
        eventsOf(events, 'process-killed').map((e) => e.workerId),
        variant,
      ).toEqual(['replica-1']);
    }
  });
});

describe('cron-every-replica near-misses', () => {
  it('released-when-done: replica-2, 300 ms late, finds the key deleted after the 200 ms report', async () => {
    const { metrics, verdict, events } = await mutant('released-when-done');
    expect(metrics).toEqual({ reportsSent: 3, firings: 3 });
    expect(verdict).toBe('fail');
    expect(eventsOf(events, 'lease-released').map((e) => [e.workerId, e.deleted])).toEqual([
      ['replica-1', 1],
      ['replica-2', 1],
      ['replica-3', 1],
    ]);
  });

  it('lease-for-the-job: the key lives as long as the report, and is gone when the next replica fires', async () => {
    const { metrics, events } = await mutant('lease-for-the-job');
    expect(metrics).toEqual({ reportsSent: 3, firings: 3 });
    expect(eventsOf(events, 'lease-acquired').map((e) => e.ttlMs)).toEqual([200, 200, 200]);
  });

  it('claim-per-replica: every replica brings a claim of its own, and all land', async () => {
    const { metrics, events } = await mutant('claim-per-replica');
    expect(metrics).toEqual({ reportsSent: 3, firings: 3 });
    expect(eventsOf(events, 'write-rejected')).toHaveLength(0);
  });

  it("slot-by-database-clock: passes while the clocks are within the slot, fails when the last replica lands in the database's next slot", async () => {
    const close = await mutant('slot-by-database-clock');
    expect(close.metrics).toEqual({ reportsSent: 1, firings: 3 });
    const far = await mutant('slot-by-database-clock', { replicas: 3, skewMs: 1300 });
    expect(far.metrics).toEqual({ reportsSent: 2, firings: 3 });
    const claims = eventsOf(far.events, 'write-accepted')
      .filter((e) => e.target === 'slot_claims')
      .map((e) => [e.workerId, String(e.value).split(' by ')[0]]);
    expect(claims.map(([replica]) => replica)).toEqual(['replica-1', 'replica-3']);
    expect(new Set(claims.map(([, claim]) => claim)).size).toBe(2);
  });
});

describe('cron-every-replica without libfaketime (the real mechanisms forced off)', () => {
  let imitated: Playground;
  beforeAll(async () => {
    imitated = await openTestPlayground(2, { labMechanisms: detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' }) });
  });
  afterAll(() => imitated.close());

  it("moves each replica's own Date before croner reads it: the same counts, and the clocks say how", async () => {
    for (const [variant, reportsSent] of [
      ['every-replica', 3],
      ['lock-per-slot', 1],
    ] as const) {
      const { metrics, events } = await play(imitated, 'cron-every-replica', variant);
      expect(metrics, variant).toEqual({ reportsSent, firings: 3 });
      expect(eventsOf(events, 'clock-skewed').map((e) => [e.workerId, e.offsetMs, e.mechanism])).toEqual([
        ['replica-2', -300, MECHANISM.simulatedClock],
        ['replica-3', -600, MECHANISM.simulatedClock],
      ]);
    }
  });
});

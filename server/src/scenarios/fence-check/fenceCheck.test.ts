// Every fence-check variant against the real Redis and PostgreSQL, at its defaults and at
// other parameters. Each run plays the four orderings; worker-1 is stopped for real
// (SIGSTOP/SIGCONT) at the step each ordering names, and a trigger in PostgreSQL records
// what each check let through, so each verdict is the same on every run.
// The other parameters are in fenceCheck.params.test.ts (`npm run test:full`).
import { describe, expect, it } from 'vitest';
import { eventsOf, play } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';

const tested = scenarioUnderTest('fence-check');
const { run } = tested;

const LET = 'let through';
const TAKEN = 'taken, then replaced';
const REFUSED = 'refused';

describe('fence-check at its defaults: which orderings each check lets through', () => {
  it('none: every stale write that comes after the new one stays', async () => {
    const { metrics, verdict, events } = await run('none');
    expect(metrics).toEqual({ lateWrite: LET, earlyWrite: TAKEN, checkThenWrite: LET, lateRegistration: LET, orderingsLetThrough: 3 });
    expect(verdict).toBe('fail');
    // worker-1 was stopped for real once per ordering.
    expect(eventsOf(events, 'process-paused', 'worker-1').map((e) => e.plannedMs)).toEqual([700, 700, 700, 700]);
    // The row's fence goes back from 2 to 1: worker-2's write, then worker-1's stale one. In
    // the log's order, which is causal here (worker-1 writes only once worker-2's write is
    // logged), not the sampled row's: worker-2's value may stand too briefly to be sampled.
    const lateWrites = eventsOf(events, 'write-accepted').filter((e) => e.target === 'late-write');
    expect(lateWrites.map((e) => [e.workerId, e.fence])).toEqual([
      ['worker-2', 2],
      ['worker-1', 1],
    ]);
    // And that is where the row stays, as the server read it last.
    const lateRow = eventsOf(events, 'row-observed').filter((e) => e.target === 'late-write');
    expect(lateRow.at(-1)?.value).toBe('worker-1 · fence 1');
  });

  it('equal-lease-id: refuses early, but a late registration takes the row back', async () => {
    const { metrics, verdict, events } = await run('equal-lease-id');
    expect(metrics).toEqual({
      lateWrite: REFUSED,
      earlyWrite: REFUSED,
      checkThenWrite: REFUSED,
      lateRegistration: LET,
      orderingsLetThrough: 1,
    });
    expect(verdict).toBe('fail');
    // Where worker-1 was stopped in each ordering: the step it reached just before.
    const mine = events.filter((e) => e.workerId === 'worker-1');
    const stops = mine.flatMap((e, i) => {
      const step = mine[i - 1];
      return e.type === 'process-paused' && step?.type === 'checkpoint-reached' ? [step] : [];
    });
    expect(stops.map((e) => e.checkpoint)).toEqual(['before-write', 'before-write', 'before-write', 'before-register']);
  });

  it('greater-than-in-app: the right rule, but a write between check and write is lost', async () => {
    const { metrics, verdict, events } = await run('greater-than-in-app');
    expect(metrics).toEqual({
      lateWrite: REFUSED,
      earlyWrite: TAKEN,
      checkThenWrite: LET,
      lateRegistration: REFUSED,
      orderingsLetThrough: 1,
    });
    expect(verdict).toBe('fail');
    // In check-then-write, worker-1 read fence 0 before it stopped, and wrote after worker-2.
    const reads = eventsOf(events, 'value-read', 'worker-1').filter((e) => e.target === 'check-then-write');
    expect(reads.map((e) => e.value)).toEqual([0]);
  });

  it('database-guard: no ordering lets a stale write replace a newer one', async () => {
    const { metrics, verdict, events } = await run('database-guard');
    expect(metrics).toEqual({
      lateWrite: REFUSED,
      earlyWrite: TAKEN,
      checkThenWrite: REFUSED,
      lateRegistration: REFUSED,
      orderingsLetThrough: 0,
    });
    expect(verdict).toBe('pass');
    const rows = eventsOf(events, 'row-observed');
    for (const doc of ['late-write', 'early-write', 'check-then-write', 'late-registration']) {
      expect(rows.filter((e) => e.target === doc).at(-1)?.value, doc).toBe('worker-2 · fence 2');
    }
  });
});

describe('fence-check counts what the stores did, not what the workers logged', () => {
  it('worker-2 killed right after its grant: the grant is on record, and the stale write over it still counts', async () => {
    // Killed in the first ordering (late-write), before it writes or logs anything: only
    // Redis's record of its grant, made by the granting script itself, says that worker-1's
    // write, which lands after it, is stale.
    const kill = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'kill' as const }];
    const { metrics, verdict, events } = await play(tested.playground, 'fence-check', 'none', {}, kill);
    expect(eventsOf(events, 'process-killed', 'worker-2')).toHaveLength(1);
    expect(eventsOf(events, 'write-accepted', 'worker-2')).toHaveLength(0);
    // The later orderings have no newer holder, so nothing in them is stale.
    const none = 'no stale write';
    expect(metrics).toEqual({ lateWrite: LET, earlyWrite: none, checkThenWrite: none, lateRegistration: none, orderingsLetThrough: 1 });
    expect(verdict).toBe('fail');
  });
});

import { describe, expect, it } from 'vitest';
import { LOST_STORE_EXIT_CODES } from '@racelab/shared';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { deadHolderRun } from './fixtures/deadHolderRun.js';
import { noLockRun } from './fixtures/noLockRun.js';
import { tokenLuaRun } from './fixtures/tokenLuaRun.js';
import { deriveLanes, rosterLanes } from './lanes.js';
import { markOf, writeWords } from './marks.js';

const kinds = (lane: { marks: { kind: string }[] }) => lane.marks.map((m) => m.kind);

describe('deriveLanes', () => {
  it('has one lane per worker of the roster, in order', () => {
    const lanes = deriveLanes(noLockRun());
    expect(lanes.map((l) => l.workerId)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    expect(lanes.map((l) => l.pid)).toEqual([4100, 4101, 4102]);
    expect(lanes.map((l) => l.host)).toEqual([null, null, null]);
  });

  it("names the worker agent whose host ran a worker's process", () => {
    const events = noLockRun().map((e) => (e.type === 'worker-started' && e.workerId === 'worker-2' ? { ...e, host: 'rack-7' } : e));
    expect(deriveLanes(events).map((l) => [l.pid, l.host])).toEqual([
      [4100, null],
      [4101, 'rack-7'],
      [4102, null],
    ]);
  });

  it('shows every worker of a no-lock run doing the work and writing', () => {
    for (const lane of deriveLanes(noLockRun())) {
      expect(lane.spans).toHaveLength(1);
      expect(lane.spans[0]).toMatchObject({ kind: 'work' });
      const writes = lane.marks.filter((m) => m.kind === 'write-accepted');
      expect(writes).toHaveLength(1);
      expect(writes[0]!.label).toMatch(new RegExp(`^${lane.workerId} write to email accepted at \\d+ ms$`));
      expect(lane.fate).toBe('exited 0');
      expect(lane.died).toBe(false);
    }
  });

  it('says of a worker that went back to the warm pool that it was kept warm, in words short enough for a phone', () => {
    const events = noLockRun().map((e) => (e.type === 'worker-exited' && e.workerId === 'worker-2' ? { ...e, pooled: true as const } : e));
    const [w1, w2] = deriveLanes(events);
    expect([w1!.fate, w2!.fate]).toEqual(['exited 0', 'kept warm']);
    expect(w2!.died).toBe(false);
    expect(w2!.marks.map((m) => m.label)).toContainEqual(expect.stringMatching(/^worker-2 went back to the warm pool at \d+ ms$/));
  });

  it('names marks with worker, fact and time', () => {
    const w1 = deriveLanes(noLockRun())[0]!;
    expect(w1.marks.find((m) => m.kind === 'write-accepted')!.label).toBe('worker-1 write to email accepted at 131 ms');
  });

  it('draws the stall, and the blind DEL as a major mark', () => {
    const w1 = deriveLanes(blindDelRun())[0]!;
    const stall = w1.spans.find((s) => s.kind === 'stall')!;
    expect([stall.startMs, stall.endMs]).toEqual([8, 788]);
    const del = w1.marks.find((m) => m.kind === 'blind-delete')!;
    expect(del.label).toBe("worker-1 deleted worker-2's lock lock:nightly-report at 803 ms");
    expect(del.major).toBe(true);
    expect(kinds(deriveLanes(blindDelRun())[1]!)).toContain('release');
  });

  it('shows denials, skips, waits and a single death mark', () => {
    const [w1, w2, w3] = deriveLanes(deadHolderRun());
    expect(kinds(w1!).filter((k) => k === 'death')).toHaveLength(1);
    expect(w1!.fate).toBe('killed by SIGKILL');
    expect(w1!.died).toBe(true);
    expect(kinds(w2!)).toEqual(['skip', 'skip']);
    const wait = w3!.spans.find((s) => s.kind === 'wait')!;
    expect([wait.startMs, wait.endMs]).toEqual([150, 400]);
  });

  it('carries fence numbers on writes', () => {
    const [w1, w2] = deriveLanes(tokenLuaRun());
    const rejected = w1!.marks.find((m) => m.kind === 'write-rejected')!;
    expect(rejected.tag).toBe('#1');
    expect(rejected.label).toBe('worker-1 write to email rejected with fence 1 at 720 ms');
    expect(rejected.details).toContain('reason: stale fence 1 < 2');
    expect(w2!.marks.find((m) => m.kind === 'write-accepted')!.tag).toBe('#2');
  });
});

describe('rosterLanes', () => {
  it("lays out the workers' lanes before the run names them: empty, in the order and with the colours the run gives them", () => {
    const roster = ['worker-1', 'worker-2', 'worker-3'];
    const before = rosterLanes(roster);
    expect(before.map((l) => [l.workerId, l.index, l.pid, l.marks.length, l.spans.length, l.leases.length])).toEqual([
      ['worker-1', 0, null, 0, 0, 0],
      ['worker-2', 1, null, 0, 0, 0],
      ['worker-3', 2, null, 0, 0, 0],
    ]);
    // The same lanes for the same roster: a render before the run-started draws nothing anew.
    expect(rosterLanes(roster)).toBe(before);
    const after = deriveLanes(noLockRun());
    expect(after.map((l) => [l.workerId, l.index])).toEqual(before.map((l) => [l.workerId, l.index]));
  });
});

describe('mark captions', () => {
  it('shows a short written value, and only the target for a long one', () => {
    expect(writeWords('stock', 7)).toBe('stock = 7');
    expect(writeWords('email', 'report acme 2026-11-29')).toBe('email');
    const w2 = deriveLanes(tokenLuaRun())[1]!;
    expect(w2.marks.find((m) => m.kind === 'write-accepted')!.caption).toBe('email = report #2');
  });
});

describe('exit marks', () => {
  it("say which store's lost connection a worker's exit code stands for, and nothing for any other code", () => {
    const exited = (code: number) =>
      markOf({ seq: 9, atMs: 40, workerId: 'worker-3', type: 'worker-exited', code, signal: null }, 'worker-3', undefined);
    expect(exited(LOST_STORE_EXIT_CODES.Redis)?.details).toEqual(['its Redis connection was lost']);
    expect(exited(LOST_STORE_EXIT_CODES.PostgreSQL)?.details).toEqual(['its PostgreSQL connection was lost']);
    expect(exited(1)?.details).toEqual([]);
  });
});

// A lock of your own judged under a schedule: whose each grant was comes from the schedule's
// trace, in the order Redis held them, not from the order the workers' reports arrived in.
import { describe, expect, it } from 'vitest';
import type { StepAt } from '@racelab/shared';
import type { LockModule } from '../locks/lockAdapter.js';
import { lockLog } from '../testing/lockLogs.js';
import { grantedPoint } from '../worker/scheduledStores.js';
import { granteesOf, lockJudge } from './lockJudge.js';
import type { Decision } from './stepScheduler.js';

const KEY = 'lock:nightly-report';
const granted: StepAt = { kind: 'checkpoint', name: grantedPoint(KEY) };
const acquire: StepAt = { kind: 'lock', call: 'acquire', key: KEY };
const decision = (goes: string, waiting: Record<string, StepAt>): Decision => ({
  waiting: Object.entries(waiting).map(([worker, step]) => ({ worker, step })),
  choice: { worker: goes },
  preemption: false,
  leases: [],
});
const lock: LockModule = {
  name: 'token lock',
  version: 'local',
  id: 'your-lock',
  summary: '',
  source: '',
  renews: false,
  fences: true,
  spansNodes: false,
  redisKey: (key) => key,
  create: () => ({ acquire: async () => null, release: async () => undefined }),
};

// worker-1 is granted, its lease runs out and it is held there; worker-3 is granted next and
// reports its grant first; worker-1's report comes after.
const trace = [
  decision('worker-3', { 'worker-1': granted, 'worker-3': acquire }),
  decision('worker-3', { 'worker-1': granted, 'worker-3': granted }),
  decision('worker-1', { 'worker-1': granted, 'worker-3': { kind: 'redis', command: 'EVAL', keys: [KEY] } }),
];
const events = lockLog(KEY, [
  { seen: 'token-1' },
  { seen: null, gone: 'expired' },
  { seen: 'token-3' },
  { acquired: 'worker-3' },
  { acquired: 'worker-1' },
  { released: 'worker-1', deleted: 0 }, // its compare-and-delete found worker-3's token
  { seen: null, gone: 'deleted' },
  { released: 'worker-3', deleted: 1 },
]);

describe("a lock's verdict under a schedule", () => {
  it('gives the grants to the workers in the order they reached the point after their grant', () => {
    expect(granteesOf(trace, [KEY])).toEqual(['worker-1', 'worker-3']);
  });

  it("tells no order where a worker came back with a grant while another's acquire call was still going on", () => {
    const inside: StepAt = { kind: 'redis', command: 'INCR', keys: [`${KEY}:fence`] };
    const overlapped = [
      decision('worker-1', { 'worker-1': acquire, 'worker-2': acquire }),
      decision('worker-2', { 'worker-1': inside, 'worker-2': acquire }), // worker-1 is held inside its acquire
      decision('worker-2', { 'worker-1': inside, 'worker-2': granted }),
      decision('worker-1', { 'worker-1': inside, 'worker-2': { kind: 'yield', why: 'sleep' } }),
      decision('worker-1', { 'worker-1': granted, 'worker-2': { kind: 'yield', why: 'sleep' } }),
    ];
    expect(granteesOf(overlapped, [KEY])).toBeNull();
    const judged = lockJudge(lock)({
      metrics: { emailsSent: 2, maxConcurrentHolders: 2, lockTtlAfterRunMs: -2 },
      events,
      trace: overlapped,
    });
    expect(judged.outcome).toBe('pass');
    expect(judged.lines).toContain(
      "Whose grant was whose could not be told: two workers' acquire calls overlapped in this schedule, so no removal is counted",
    );
  });

  it("finds no removal where each DEL was its grantee's own, though the reports of the grants came in the other order", () => {
    const judged = lockJudge(lock)({ metrics: { emailsSent: 2, maxConcurrentHolders: 2, lockTtlAfterRunMs: -2 }, events, trace });
    expect(judged.outcome).toBe('pass');
    expect(judged.lines[0]).toContain("worker-1's expired, worker-3's deleted");
  });

  it("finds the removal when a stale holder's release took the next holder's lock", () => {
    const stale = lockLog(KEY, [
      { seen: 'locked' },
      { seen: null, gone: 'expired' },
      { seen: 'locked' },
      { acquired: 'worker-3' },
      { acquired: 'worker-1' },
      { released: 'worker-1', deleted: 1 },
      { seen: null, gone: 'deleted' },
      { released: 'worker-3', deleted: 0 },
    ]);
    const judged = lockJudge(lock)({ metrics: { emailsSent: 2, maxConcurrentHolders: 2, lockTtlAfterRunMs: -2 }, events: stale, trace });
    expect(judged.outcome).toBe('fail');
    expect(judged.lines[0]).toMatch(/^Locks held by another removed by a release: 1 — should be 0/);
    expect(judged.lines[0]).toContain(
      "worker-3's lock went by a DEL, not by expiry nor by its own release, but by worker-1's release after its own lease had expired",
    );
  });

  it('fails a key left with no expiry, and two containers at once while no lease ran out', () => {
    const held = lockLog(KEY, [{ seen: 'locked' }, { acquired: 'worker-1' }]);
    const judged = lockJudge(lock)({
      metrics: { emailsSent: 2, maxConcurrentHolders: 2, lockTtlAfterRunMs: -1 },
      events: held,
      trace: [decision('worker-1', { 'worker-1': granted })],
    });
    expect(judged.outcome).toBe('fail');
    expect(judged.lines.slice(0, 2)).toEqual([
      "Lock TTL after run: no expiry — should expire (Redis: a holder's key outlived it and never expires)",
      "Containers building at once while no lease ran out: 2 — should be 1 (PostgreSQL's report rows; Redis's expiries)",
    ]);
  });
});

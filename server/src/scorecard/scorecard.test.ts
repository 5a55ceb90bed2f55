// The scorecard's runner on a small slice, on the real stores: one library × three faults,
// each cell read from its run's metrics, with its parameters and its recording, and a second
// pass gives the same matrix; the labs with nodes of their own: a Redlock library over the
// partitioned five nodes and on the primary that fails over, a lock of one Redis under the
// Redlock fault; a library that fences, whose stale writes the row refuses; and the second
// part on a slice: PgBouncer's two ways under the pooler and pg-boss's plain insert with its
// worker killed, each read from its scenario's own invariant (the full matrix is `npm run
// scorecard`, never run by the tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '@racelab/shared';
import { LIBRARY_LOCKS } from '../locks/lockModules.js';
import type { Playground } from '../runs/playground.js';
import { pgbouncerMissing } from '../services/pgbouncer.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { SCORECARD_FAULTS } from './faults.js';
import { runScorecard, type Scorecard } from './scorecard.js';
import { STACK_FAULTS } from './stackFaults.js';
import { runStacks, STACK_LIBRARIES, stackRows } from './stacks.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(2);
});
afterAll(() => playground.close());

const lock = LIBRARY_LOCKS.find((l) => l.id === 'lib-microfleet-ioredis-lock')!;
const faults = SCORECARD_FAULTS.filter((f) => f.id === 'stale-write' || f.id === 'renewal-starved' || f.id === 'holder-killed');
const matrix = (card: Scorecard) => card.cells.map((c) => [c.lock, c.fault, c.verdict, c.byDesign ?? false]);

describe('runScorecard', () => {
  it('reads each cell from its run, keeps its parameters and recording, and gives the same matrix twice', async () => {
    const recordings = new Map<string, Recording>();
    const first = await runScorecard(playground, [lock], faults, (file, recording) => recordings.set(file, recording));
    expect(matrix(first)).toEqual([
      ['lib-microfleet-ioredis-lock', 'stale-write', 'stale write accepted', true],
      ['lib-microfleet-ioredis-lock', 'renewal-starved', 'does not apply', false],
      ['lib-microfleet-ioredis-lock', 'holder-killed', 'correct', false],
    ]);
    const stale = first.cells[0]!;
    expect(stale.metrics).toMatchObject({ staleWritesAccepted: 1, maxConcurrentHolders: 2 });
    expect(stale.seenAt).toEqual({
      scenario: 'fencing',
      variant: lock.id,
      params: { leaseMs: 1000, pauseMs: 2500, workMs: 300 },
      faults: [],
    });
    expect([...recordings.keys()].sort()).toEqual([
      'holder-killed-lib-microfleet-ioredis-lock.json',
      'stale-write-lib-microfleet-ioredis-lock.json',
    ]);
    expect(recordings.get(stale.recording!)!.scenario.variants.map((v) => v.id)).toEqual([lock.id]);
    expect(first.cells[1]!.recording).toBeUndefined(); // no run for a fault that does not apply

    const second = await runScorecard(playground, [lock], faults, () => undefined);
    expect(matrix(second)).toEqual(matrix(first));
  }, 60_000);

  it("runs a Redlock library over the lab's partitioned nodes and on a primary that fails over; a lock of one Redis does not take the nodes", async () => {
    const redlock = LIBRARY_LOCKS.find((l) => l.id === 'lib-redlock')!;
    const labFaults = SCORECARD_FAULTS.filter((f) => f.id === 'failover-before-replication' || f.id === 'redlock-partition');
    const recordings: string[] = [];
    const card = await runScorecard(playground, [redlock, lock], labFaults, (file) => recordings.push(file));
    expect(matrix(card)).toEqual([
      ['lib-redlock', 'failover-before-replication', 'stale write accepted', true],
      ['lib-redlock', 'redlock-partition', 'correct', false],
      ['lib-microfleet-ioredis-lock', 'failover-before-replication', 'stale write accepted', true],
      ['lib-microfleet-ioredis-lock', 'redlock-partition', 'does not apply', false],
    ]);
    const [failover, partition, , unfit] = card.cells;
    expect(failover!.metrics).toMatchObject({ maxConcurrentHolders: 2, staleWritesAccepted: 1, replicaHadKeyAtFailover: 'no' });
    expect(partition!.metrics).toMatchObject({ maxConcurrentHolders: 1, staleWritesAccepted: 0, finalWriter: 'worker-2' });
    expect(partition!.seenAt).toMatchObject({ scenario: 'redlock', params: { reach: 'split', pauseMs: 0, clockJumpMs: 0 } });
    expect(unfit!.note).toContain('one Redis');
    expect(recordings).toHaveLength(3);
  }, 60_000);

  it("reads a library's own fence from the row: ioredfour's stale write is refused after the stall and after the failover", async () => {
    const ioredfour = LIBRARY_LOCKS.find((l) => l.id === 'lib-ioredfour')!;
    const fenced = SCORECARD_FAULTS.filter((f) => f.id === 'stale-write' || f.id === 'failover-before-replication');
    const card = await runScorecard(playground, [ioredfour], fenced, () => undefined);
    expect(matrix(card)).toEqual([
      ['lib-ioredfour', 'stale-write', 'correct', false],
      ['lib-ioredfour', 'failover-before-replication', 'correct', false],
    ]);
    for (const cell of card.cells) {
      expect(cell.metrics).toMatchObject({
        maxConcurrentHolders: 2,
        staleWritesAccepted: 0,
        staleWritesRejected: 1,
        finalWriter: 'worker-2',
      });
      expect(cell.note).toContain('rejected by the row');
    }
  }, 60_000);
});

describe.skipIf(pgbouncerMissing() !== null)('runStacks (needs PgBouncer: apt-get install pgbouncer)', () => {
  it("reads each cell from its scenario's invariant, runs only what applies, and writes a recording per run", async () => {
    const rows = stackRows(STACK_LIBRARIES, playground.catalog.manifests).filter(
      (r) => r.scenario === 'pooled-advisory-lock' || r.id === 'expired-job-plain-insert',
    );
    const faults = STACK_FAULTS.filter((f) => f.id === 'worker-killed' || f.id === 'pooler-transaction-mode');
    const recordings = new Map<string, Recording>();
    const stacks = await runStacks(playground, { rows, faults }, (file, recording) => recordings.set(file, recording));
    expect(stacks.cells.map((c) => [c.row, c.fault, c.verdict])).toEqual([
      ['expired-job-plain-insert', 'worker-killed', 'duplicate work'],
      ['expired-job-plain-insert', 'pooler-transaction-mode', 'does not apply'],
      ['pooled-advisory-lock-session-lock', 'worker-killed', 'not staged'],
      ['pooled-advisory-lock-session-lock', 'pooler-transaction-mode', 'duplicate work'],
      ['pooled-advisory-lock-xact-lock', 'worker-killed', 'not staged'],
      ['pooled-advisory-lock-xact-lock', 'pooler-transaction-mode', 'correct'],
    ]);
    const [killed, , , session] = stacks.cells;
    expect(session!.metrics).toEqual({ maxConcurrentHolders: 2, backends: 1 });
    expect(session!.note).toContain('Max concurrent holders: 2 — should be at most 1');
    expect(killed!.metrics).toEqual({ charges: 2, jobStarts: 2 });
    expect(killed!.seenAt).toEqual({
      scenario: 'expired-job',
      variant: 'plain-insert',
      params: { expireInSeconds: 1, fault: 'kill' },
      faults: [],
    });
    expect([...recordings.keys()].sort()).toEqual([
      'pooler-transaction-mode-pooled-advisory-lock-session-lock.json',
      'pooler-transaction-mode-pooled-advisory-lock-xact-lock.json',
      'worker-killed-expired-job-plain-insert.json',
    ]);
    expect(recordings.get(killed!.recording!)!.variant).toBe('plain-insert');
  }, 90_000);
});

// How a cell reads a run's metrics: each verdict word from the figures the stores gave, and
// fair words for what a lock never promised (no fence: a stale write is what any lease gives).
import { describe, expect, it } from 'vitest';
import type { LockModule } from '../locks/lockAdapter.js';
import { LOCK_KEY } from '../scenarios/duplicate-job/nightlyJob.js';
import { naiveStallLog, tokenStallLog } from '../testing/lockLogs.js';
import { SCORECARD_FAULTS } from './faults.js';

const fault = (id: string) => SCORECARD_FAULTS.find((f) => f.id === id)!;
const lock = (over: Partial<LockModule>): LockModule => ({
  name: 'a lock',
  version: '1.0.0',
  id: 'lib-a-lock',
  summary: '',
  renews: false,
  fences: false,
  spansNodes: false,
  redisKey: (key) => key,
  source: '',
  create: () => ({ acquire: async () => null, release: async () => undefined }),
  ...over,
});
const plain = lock({});
const renewing = lock({ renews: true });
const fencing = lock({ fences: true });
const advisory = lock({ redisKey: () => null });
const majority = lock({ spansNodes: true });

describe('scorecard cells', () => {
  it("runs the same fault list in the scorecard and in racelab check: the issue's seven and the stale write", () => {
    expect(SCORECARD_FAULTS.map((f) => f.id)).toEqual([
      'stall-past-lease',
      'release-after-expiry',
      'stale-write',
      'renewal-starved',
      'holder-killed',
      'failover-before-replication',
      'redlock-partition',
      'clock-jump',
    ]);
  });

  it('stall past the lease: two holders are duplicate work, by design, with the fair words', () => {
    const cell = fault('stall-past-lease').classify({ maxConcurrentHolders: 2, emailsSent: 2 }, plain);
    expect(cell).toMatchObject({ verdict: 'duplicate work', byDesign: true });
    expect(cell.note).toContain('prevents duplicate work, not damage');
    expect(fault('stall-past-lease').classify({ maxConcurrentHolders: 1, emailsSent: 1 }, advisory).verdict).toBe('correct');
  });

  it("release after expiry: read from the lock key's history, the e-mails beside it; a release that removed another's lock is held against the lock", () => {
    const release = fault('release-after-expiry');
    const removed = release.classify({ emailsSent: 3 }, plain, naiveStallLog(LOCK_KEY));
    expect(removed).toMatchObject({ verdict: 'duplicate work' });
    expect(removed.byDesign).toBeUndefined();
    expect(removed.note).toContain(
      "the key's history: 1 lock held by another removed by a release: worker-3's lock went by a DEL, not by expiry nor by its own release, but by worker-1's release after its own lease had expired",
    );
    expect(removed.note).toContain('not by expiry');
    expect(removed.note).toContain('e-mails 3');
    expect(removed.note).toContain("the workers' reports");
    // The history decides, not the e-mails: a compare-and-delete release is correct whatever the count.
    expect(release.classify({ emailsSent: 3 }, plain, tokenStallLog(LOCK_KEY))).toMatchObject({ verdict: 'correct' });
    expect(release.classify({ emailsSent: 2 }, plain, tokenStallLog(LOCK_KEY)).note).toContain("worker-1's expired, worker-2's deleted");
    // A library that stores the lock under a prefix of its own: its key goes by both names in the log.
    const prefixed = lock({ redisKey: (key) => `lib:${key}` });
    expect(release.classify({ emailsSent: 3 }, prefixed, naiveStallLog(`lib:${LOCK_KEY}`)).verdict).toBe('duplicate work');
    expect(release.doesNotApply(advisory)).not.toBeNull();
  });

  it('release after expiry: where Redis sent no keyspace notifications, the e-mails alone decide, and the note says so', () => {
    const release = fault('release-after-expiry');
    const cell = release.classify({ emailsSent: 3 }, plain, naiveStallLog(LOCK_KEY, false));
    expect(cell.verdict).toBe('duplicate work');
    expect(cell.note).toContain('read from the e-mails alone');
    expect(release.classify({ emailsSent: 2 }, plain, naiveStallLog(LOCK_KEY, false)).verdict).toBe('correct');
  });

  it('stale write: landed without a fence is by design ("does not prevent damage"); with a fence it is held against the lock; rejected is correct', () => {
    const stale = { staleWritesAccepted: 1, staleWritesRejected: 0 };
    const unfenced = fault('stale-write').classify(stale, plain);
    expect(unfenced).toMatchObject({ verdict: 'stale write accepted', byDesign: true });
    expect(unfenced.note).toContain('prevents duplicate work, does not prevent damage');
    expect(unfenced.note).toContain('fencing scenario');
    expect(unfenced.note).not.toMatch(/broken/i);
    const fenced = fault('stale-write').classify(stale, fencing);
    expect(fenced.verdict).toBe('stale write accepted');
    expect(fenced.byDesign).toBeUndefined();
    expect(fault('stale-write').classify({ staleWritesAccepted: 0, staleWritesRejected: 1 }, fencing)).toMatchObject({
      verdict: 'correct',
    });
    expect(fault('stale-write').doesNotApply(advisory)).not.toBeNull();
    expect(fault('stale-write').doesNotApply(plain)).toBeNull();
  });

  it('renewal starved: applies only to a lock that renews itself', () => {
    expect(fault('renewal-starved').doesNotApply(plain)).toContain('does not renew');
    expect(fault('renewal-starved').doesNotApply(renewing)).toBeNull();
    expect(fault('renewal-starved').classify({ staleWritesAccepted: 1, staleWritesRejected: 0 }, renewing)).toMatchObject({
      verdict: 'stale write accepted',
      byDesign: true,
    });
    expect(fault('renewal-starved').classify({ staleWritesAccepted: 0, staleWritesRejected: 0 }, renewing).verdict).toBe('correct');
  });

  it('holder killed: a key with no expiry is a stuck lock', () => {
    expect(fault('holder-killed').classify({ lockTtlAfterRunMs: -1 }, plain).verdict).toBe('stuck lock');
    expect(fault('holder-killed').classify({ lockTtlAfterRunMs: -2 }, plain).verdict).toBe('correct');
  });

  it('failover before replication: a stale write without a fence is what any lock on one primary gives; with a fence it is held against the lock', () => {
    const stale = { staleWritesAccepted: 1, staleWritesRejected: 0, maxConcurrentHolders: 2 };
    const unfenced = fault('failover-before-replication').classify(stale, plain);
    expect(unfenced).toMatchObject({ verdict: 'stale write accepted', byDesign: true });
    expect(unfenced.note).toContain('prevents duplicate work, does not prevent damage');
    expect(unfenced.note).toContain('replicates asynchronously');
    expect(fault('failover-before-replication').classify(stale, fencing).byDesign).toBeUndefined();
    expect(fault('failover-before-replication').classify({ staleWritesAccepted: 0, staleWritesRejected: 1 }, fencing).verdict).toBe(
      'correct',
    );
    expect(fault('failover-before-replication').doesNotApply(advisory)).toContain('PostgreSQL');
    expect(fault('failover-before-replication').doesNotApply(majority)).toBeNull(); // a Redlock over the one primary
  });

  it('Redlock partition: applies to a lock of several nodes only; two majorities across it are held against the lock', () => {
    const partition = fault('redlock-partition');
    expect(partition.doesNotApply(plain)).toContain('one Redis');
    expect(partition.doesNotApply(plain)).toContain('spansNodes');
    expect(partition.doesNotApply(majority)).toBeNull();
    expect(partition.classify({ maxConcurrentHolders: 1, staleWritesAccepted: 0, finalWriter: 'worker-2' }, majority).verdict).toBe(
      'correct',
    );
    const twice = partition.classify({ maxConcurrentHolders: 2, staleWritesAccepted: 1, finalWriter: 'worker-1' }, majority);
    expect(twice.verdict).toBe('stale write accepted');
    expect(twice.byDesign).toBeUndefined();
    expect(partition.classify({ maxConcurrentHolders: 0, staleWritesAccepted: 0, finalWriter: 'nobody' }, majority).verdict).toBe(
      'stuck lock',
    );
  });

  it("clock jump: a second majority's stale write without a fence is by design, in fair words", () => {
    const jump = fault('clock-jump');
    expect(jump.doesNotApply(plain)).not.toBeNull();
    const cell = jump.classify({ staleWritesAccepted: 1, staleWritesRejected: 0 }, majority);
    expect(cell).toMatchObject({ verdict: 'stale write accepted', byDesign: true });
    expect(cell.note).toContain('clocks that do not jump');
    expect(cell.note).not.toMatch(/broken/i);
  });
});

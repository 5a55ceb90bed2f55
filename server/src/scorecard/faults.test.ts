// How a cell reads a run's metrics: each verdict word from the figures the stores gave, and
// fair words for what a lock never promised (no fence: a stale write is what any lease gives).
import { describe, expect, it } from 'vitest';
import type { LockModule } from '../locks/lockAdapter.js';
import { SCORECARD_FAULTS } from './faults.js';

const fault = (id: string) => SCORECARD_FAULTS.find((f) => f.id === id)!;
const lock = (over: Partial<LockModule>): LockModule => ({
  name: 'a lock',
  version: '1.0.0',
  id: 'lib-a-lock',
  summary: '',
  renews: false,
  fences: false,
  redisKey: (key) => key,
  source: '',
  create: () => ({ acquire: async () => null, release: async () => undefined }),
  ...over,
});
const plain = lock({});
const renewing = lock({ renews: true });
const fencing = lock({ fences: true });
const advisory = lock({ redisKey: () => null });

describe('scorecard cells', () => {
  it('runs the same fault list in the scorecard and in racelab check, over at least five faults', () => {
    expect(SCORECARD_FAULTS.map((f) => f.id)).toEqual(['stall-past-lease', 'release-after-expiry', 'stale-write', 'renewal-starved', 'holder-killed']);
  });

  it('stall past the lease: two holders are duplicate work, by design, with the fair words', () => {
    const cell = fault('stall-past-lease').classify({ maxConcurrentHolders: 2, emailsSent: 2 }, plain);
    expect(cell).toMatchObject({ verdict: 'duplicate work', byDesign: true });
    expect(cell.note).toContain('prevents duplicate work, not damage');
    expect(fault('stall-past-lease').classify({ maxConcurrentHolders: 1, emailsSent: 1 }, advisory).verdict).toBe('correct');
  });

  it('release after expiry: a third e-mail is duplicate work held against the lock', () => {
    expect(fault('release-after-expiry').classify({ emailsSent: 3 }, plain)).toMatchObject({ verdict: 'duplicate work' });
    expect(fault('release-after-expiry').classify({ emailsSent: 3 }, plain).byDesign).toBeUndefined();
    expect(fault('release-after-expiry').classify({ emailsSent: 2 }, plain).verdict).toBe('correct');
    expect(fault('release-after-expiry').doesNotApply(advisory)).not.toBeNull();
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
    expect(fault('stale-write').classify({ staleWritesAccepted: 0, staleWritesRejected: 1 }, fencing)).toMatchObject({ verdict: 'correct' });
    expect(fault('stale-write').doesNotApply(advisory)).not.toBeNull();
    expect(fault('stale-write').doesNotApply(plain)).toBeNull();
  });

  it('renewal starved: applies only to a lock that renews itself', () => {
    expect(fault('renewal-starved').doesNotApply(plain)).toContain('does not renew');
    expect(fault('renewal-starved').doesNotApply(renewing)).toBeNull();
    expect(fault('renewal-starved').classify({ staleWritesAccepted: 1, staleWritesRejected: 0 }, renewing)).toMatchObject({ verdict: 'stale write accepted', byDesign: true });
    expect(fault('renewal-starved').classify({ staleWritesAccepted: 0, staleWritesRejected: 0 }, renewing).verdict).toBe('correct');
  });

  it('holder killed: a key with no expiry is a stuck lock', () => {
    expect(fault('holder-killed').classify({ lockTtlAfterRunMs: -1 }, plain).verdict).toBe('stuck lock');
    expect(fault('holder-killed').classify({ lockTtlAfterRunMs: -2 }, plain).verdict).toBe('correct');
  });
});

import { describe, expect, it } from 'vitest';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { deadHolderRun } from './fixtures/deadHolderRun.js';
import { LogBuilder } from './fixtures/build.js';
import { noLockRun } from './fixtures/noLockRun.js';
import { tokenLuaRun } from './fixtures/tokenLuaRun.js';
import { deriveOverlaps, maxHolders } from './holders.js';
import { deriveLeases } from './leases.js';

describe('deriveLeases', () => {
  it('finds no lease when no worker locks', () => {
    expect(deriveLeases(noLockRun())).toEqual([]);
    expect(maxHolders(noLockRun())).toBe(0);
  });

  it('ends a stalled holder’s lease at expiry and shades the rest as a zombie window', () => {
    const [w1] = deriveLeases(blindDelRun());
    expect(w1).toMatchObject({ workerId: 'worker-1', acquiredMs: 5, expiresAtMs: 505, releasedMs: 803, deleted: 1 });
    expect(w1!.heldEndMs).toBe(505);
    expect(w1!.end).toEqual({ kind: 'expired' });
    expect(w1!.zombie).toEqual({ startMs: 505, endMs: 803 });
  });

  it('sees a blind DEL remove the next holder’s lock', () => {
    const leases = deriveLeases(blindDelRun());
    const w1 = leases.find((l) => l.workerId === 'worker-1')!;
    const w2 = leases.find((l) => l.workerId === 'worker-2')!;
    const w3 = leases.find((l) => l.workerId === 'worker-3')!;
    expect(w1.deletedLockOf).toBe('worker-2');
    expect(w2.end).toEqual({ kind: 'deleted', by: 'worker-1' });
    expect(w2.heldEndMs).toBe(803);
    expect(w2.zombie).toEqual({ startMs: 803, endMs: 1000 });
    // worker-3 released its own lock: a clean release, no zombie.
    expect(w3.end).toEqual({ kind: 'released' });
    expect(w3.heldEndMs).toBe(950);
    expect(w3.zombie).toBeNull();
    expect(w3.deletedLockOf).toBeNull();
  });

  it('counts overlapping beliefs per key', () => {
    const overlaps = deriveOverlaps(blindDelRun());
    expect(overlaps.map((o) => [o.startMs, o.endMs, o.holders])).toEqual([
      [602, 803, ['worker-1', 'worker-2']],
      [852, 950, ['worker-2', 'worker-3']],
    ]);
    expect(maxHolders(blindDelRun())).toBe(2);
  });

  it('keeps a dead worker’s never-expiring lock open to the run’s end', () => {
    const [w1] = deriveLeases(deadHolderRun());
    expect(w1).toMatchObject({ workerId: 'worker-1', ttlMs: null, goneMs: 10, heldEndMs: 500, releasedMs: null });
    expect(w1!.end).toEqual({ kind: 'never-released' });
    expect(w1!.zombie).toBeNull();
    expect(w1!.belief).toEqual({ startMs: 3, endMs: 10 });
  });

  it('shows a token release that deleted nothing, and carries the fence', () => {
    const [w1, w2] = deriveLeases(tokenLuaRun());
    expect(w1).toMatchObject({ fence: 1, token: 'tok-a1', deleted: 0, deletedLockOf: null, heldEndMs: 405 });
    expect(w1!.zombie).toEqual({ startMs: 405, endMs: 725 });
    expect(w2).toMatchObject({ fence: 2, end: { kind: 'released' }, heldEndMs: 560 });
  });

  it('leaves a lease open while the run is in progress', () => {
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1'] })
      .at(3, 'worker-1', { type: 'lease-acquired', key: 'k', ttlMs: null })
      .build();
    const [l] = deriveLeases(events);
    expect(l!.heldEndMs).toBeNull();
    expect(l!.end).toEqual({ kind: 'open' });
    expect(l!.belief.endMs).toBeNull();
  });

  it("extends a lease as far as the server saw Redis hold the worker's own token: a library's renewals, which tell the worker nothing", () => {
    const run = (stoppedAfterMs: number | null) => {
      const b = new LogBuilder()
        .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1'] })
        .at(3, 'worker-1', { type: 'lease-acquired', key: 'mutex:k', ttlMs: 100, fromMs: 1, token: 'id-1' })
        // Renewed at 80 % each time while the process runs: Redis reports 100 ms left again.
        .observe('k', 2, 81, 5, 'id-1', 101)
        .observe('k', 81, 161, 5, 'id-1', 181);
      if (stoppedAfterMs === null)
        b.observe('k', 161, 250, 5, 'id-1', 261).at(250, 'worker-1', { type: 'lease-released', key: 'mutex:k', deleted: 1 });
      else
        b.observe('k', 161, 181, 5, 'id-1', 181)
          .observe('k', 181, 400, 5, null)
          .at(400, 'worker-1', { type: 'lease-released', key: 'mutex:k', deleted: 0 });
      return deriveLeases(b.at(500, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' }).build())[0]!;
    };
    // Renewed to its release: no zombie, though its first TTL ended at 101.
    expect(run(null)).toMatchObject({ expiresAtMs: 261, heldEndMs: 250, end: { kind: 'released' }, zombie: null });
    // Its process stopped after the second renewal: it lapses at the end of that one.
    expect(run(161)).toMatchObject({ expiresAtMs: 181, heldEndMs: 181, end: { kind: 'expired' }, zombie: { startMs: 181, endMs: 400 } });
  });

  it("extends a lease as far as the server saw a lab's nodes hold the worker's token (a Redlock majority renewed by its library)", () => {
    const run = (renewed: boolean) => {
      const b = new LogBuilder()
        .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: true, params: {}, workers: ['worker-1'] })
        .at(110, 'worker-1', { type: 'lease-acquired', key: 'mutex:k', ttlMs: 750, fromMs: 5, token: 'id-1' })
        .at(112, null, { type: 'lock-held', key: 'mutex:k', token: 'id-1', pttlMs: 740 });
      if (renewed) b.at(710, null, { type: 'lock-held', key: 'mutex:k', token: 'id-1', pttlMs: 749 });
      b.at(1200, 'worker-1', { type: 'lease-released', key: 'mutex:k', deleted: renewed ? 1 : 0 });
      return deriveLeases(b.at(1250, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' }).build())[0]!;
    };
    // The worker's own count ends at 755; a majority held its token to 852, then renewed to 1,459.
    expect(run(true)).toMatchObject({ expiresAtMs: 1459, heldEndMs: 1200, end: { kind: 'released' }, zombie: null });
    // Not renewed: gone where the majority's hold ended, and the worker went on believing.
    expect(run(false)).toMatchObject({ expiresAtMs: 852, heldEndMs: 852, end: { kind: 'expired' }, zombie: { startMs: 852, endMs: 1200 } });
  });

  it('takes no renewal from a value two leases carried: Redis holding it says nothing of whose lease lives', () => {
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1', 'worker-2'] })
      .at(3, 'worker-1', { type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 1, token: 'same' })
      .at(120, 'worker-2', { type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 118, token: 'same' })
      .observe('k', 121, 200, 5, 'same', 218)
      .at(300, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'fail' })
      .build();
    const [w1] = deriveLeases(events);
    expect(w1).toMatchObject({ expiresAtMs: 101, end: { kind: 'expired' }, zombie: { startMs: 101, endMs: 300 } });
  });

  it('takes an expiry set after the fact (SETNX then EXPIRE)', () => {
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1'] })
      .at(3, 'worker-1', { type: 'lease-acquired', key: 'k', ttlMs: null })
      .at(10, 'worker-1', { type: 'lease-expiry-set', key: 'k', ttlMs: 100 })
      .at(50, 'worker-1', { type: 'lease-released', key: 'k', deleted: 1 })
      .at(60, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' })
      .build();
    const [l] = deriveLeases(events);
    expect(l).toMatchObject({ ttlMs: 100, expiresAtMs: 110, heldEndMs: 50, end: { kind: 'released' } });
    // An EXPIRE counts from when it was sent, too.
    const sentEarlier = structuredClone(events).map((e) => (e.type === 'lease-expiry-set' ? { ...e, fromMs: 7 } : e));
    expect(deriveLeases(sentEarlier)[0]).toMatchObject({ expiresAtMs: 107 });
  });

  it('counts a lease from when its command was sent, not from a late reply', () => {
    // worker-1 sent the SET at 10 and heard back at 90 (a busy machine); Redis's TTL of 100
    // ran from the SET, so worker-2's SET at 112 found the key gone and took it.
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1', 'worker-2'] })
      .at(90, 'worker-1', { type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 10 })
      .at(115, 'worker-2', { type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 112 })
      .at(300, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'fail' })
      .build();
    const [w1, w2] = deriveLeases(events);
    expect(w1).toMatchObject({ acquiredMs: 90, heldEndMs: 110, end: { kind: 'expired' }, zombie: { startMs: 110, endMs: 300 } });
    // The protected parts do not overlap, as in Redis: worker-2's starts after worker-1's ended.
    expect(w2).toMatchObject({ acquiredMs: 115, expiresAtMs: 212 });
    expect(w1!.heldEndMs!).toBeLessThan(w2!.acquiredMs);
  });

  it('returns the same array for the same log (stable for React and zustand)', () => {
    const events = blindDelRun();
    expect(deriveLeases(events)).toBe(deriveLeases(events));
    expect(deriveOverlaps(events)).toBe(deriveOverlaps(events));
  });
});

describe('a lease during a run in progress', () => {
  const start = () =>
    new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1'] })
      .at(10, 'worker-1', { type: 'lease-acquired', key: 'k', ttlMs: 400 });

  it('is open, with its expiry still ahead as a pending zombie window', () => {
    const [l] = deriveLeases(start().at(100, 'worker-1', { type: 'note', text: 'working' }).build());
    expect(l!.heldEndMs).toBeNull();
    expect(l!.end).toEqual({ kind: 'open' });
    expect(l!.zombie).toEqual({ startMs: 410, endMs: null, pending: true });
  });

  it('has expired once an event later than the expiry arrives', () => {
    const [l] = deriveLeases(start().at(500, null, { type: 'key-observed', key: 'k', value: null, pttlMs: -2 }).build());
    expect(l!.heldEndMs).toBe(410);
    expect(l!.end).toEqual({ kind: 'expired' });
    expect(l!.zombie).toEqual({ startMs: 410, endMs: null });
  });
});

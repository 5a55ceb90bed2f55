// The lease's edge as the expected verdicts and the choreography both read it.
import { describe, expect, it } from 'vitest';
import type { WorkerEventBody } from '@racelab/shared';
import {
  endsInsideLease,
  LEASE_EDGE_MS,
  RENEWAL_EDGE_MS,
  stallAsPlayed,
  stallOf,
  thinRenewal,
  type StallAgainstLease,
} from './leaseEdge.js';

function played(stall: StallAgainstLease): { ms: number; notes: string[] } {
  const notes: string[] = [];
  const ms = stallAsPlayed({ emit: (e: WorkerEventBody) => e.type === 'note' && notes.push(e.text) }, stall, 'pause');
  return { ms, notes };
}

describe('the lease edge', () => {
  const lease = (stallMs: number, workMs: number, renews: boolean): StallAgainstLease => ({
    leaseMs: 300,
    stallMs,
    workMs,
    renews,
    edgeMs: LEASE_EDGE_MS,
  });

  it('counts what ends the edge or more before the lease as inside it, and nothing nearer', () => {
    expect(LEASE_EDGE_MS).toBe(50);
    expect(endsInsideLease(lease(250, 0, false))).toBe(true);
    expect(endsInsideLease(lease(251, 0, false))).toBe(false);
    expect(endsInsideLease(lease(150, 100, false))).toBe(true);
    expect(endsInsideLease(lease(150, 101, false))).toBe(false);
    // A lease that renews once its holder runs again needs only the stall inside it.
    expect(endsInsideLease(lease(250, 1000, true))).toBe(true);
    expect(endsInsideLease(lease(251, 0, true))).toBe(false);
  });

  it('plays a stall at the edge on past the lease by the edge again, and says so', () => {
    expect(played(lease(295, 0, false))).toEqual({
      ms: 350,
      notes: [expect.stringMatching(/would end 5 ms before the lease does.*played for 350 ms/)],
    });
    // Its work counts for a lease that does not renew: the act comes the edge past the end.
    expect(played(lease(150, 130, false)).ms).toBe(220);
    // A renewing lease: only the stall's end, which is then the edge past the lease's.
    expect(played(lease(290, 1000, true)).ms).toBe(350);
    // Even a stall of 0 whose work alone ends at the edge.
    expect(played(lease(0, 280, false)).ms).toBe(70);
  });

  it('leaves a stall alone that ends inside the lease, or past its end already', () => {
    for (const stall of [lease(250, 0, false), lease(300, 0, false), lease(2500, 300, false), lease(250, 1000, true), lease(0, 0, false)]) {
      expect(played(stall)).toEqual({ ms: stall.stallMs, notes: [] });
    }
  });

  it("reads a lab's parameters, with no work where the lab has none", () => {
    expect(stallOf({ leaseMs: 300, blockMs: 200, workMs: 40 }, 'blockMs', true)).toEqual({
      leaseMs: 300,
      stallMs: 200,
      workMs: 40,
      renews: true,
      edgeMs: 50,
    });
    expect(stallOf({ leaseMs: 300, pauseMs: 200 }, 'pauseMs', false)).toEqual({
      leaseMs: 300,
      stallMs: 200,
      workMs: 0,
      renews: false,
      edgeMs: 50,
    });
  });
});

describe('a lock that renews itself, against its lease', () => {
  const renewsAt80 = { name: 'a lock', renewsAt: 0.8 };

  it('is refused a lease that leaves its renewal less than the edge to land, and told the least that does', () => {
    expect(RENEWAL_EDGE_MS).toBe(50);
    expect(thinRenewal(renewsAt80, 100)).toBe(
      "a lock renews its lock after 80 % of the lease: a 100 ms lease leaves each renewal 20 ms to land, and a busy machine's timer is late by more than that now and then, so the verdict would be luck. Use a lease of 248 ms or more.",
    );
    // Renewed at a whole ms (redis-semaphore: Math.round(lockTimeout * 0.8)): 247 ms → at 198 ms, 49 left; 248 → at 198, 50.
    expect(thinRenewal(renewsAt80, 247)).toMatch(/a 247 ms lease leaves each renewal 49 ms to land.* 248 ms or more\.$/);
    expect(thinRenewal(renewsAt80, 248)).toBeNull();
    expect(thinRenewal(renewsAt80, 10_000)).toBeNull();
  });

  it('is not refused when it renews early in its lease, or does not say when it renews', () => {
    expect(thinRenewal({ name: 'a watchdog', renewsAt: 1 / 3 }, 100)).toBeNull();
    expect(thinRenewal({ name: 'a lock of your own' }, 100)).toBeNull();
  });
});

// Every recorded real run goes through every derivation, and the pictures say what the
// variant did.
import { describe, expect, it } from 'vitest';
import { recorded } from './fixtures/recorded/index.js';
import { deriveLanes } from './lanes.js';
import { deriveOverlaps } from './holders.js';
import { deriveLeases } from './leases.js';
import { runSummary } from './runSummary.js';
import { deriveStoreLanes } from './storeLanes.js';

describe('recorded duplicate-job runs', () => {
  it.each(Object.entries(recorded))('%s: a lane per worker and a finished run', (_variant, events) => {
    const summary = runSummary(events);
    expect(summary.phase).toBe('finished');
    expect(deriveLanes(events).map((l) => l.workerId)).toEqual(summary.workers);
    expect(deriveStoreLanes(events).length).toBeGreaterThan(0);
  });

  it('blind-del: each late DEL removes the next holder’s lock', () => {
    const leases = deriveLeases(recorded['blind-del']!);
    expect(leases.map((l) => [l.workerId, l.end.kind, l.deletedLockOf])).toEqual([
      ['worker-1', 'expired', 'worker-2'],
      ['worker-2', 'deleted', 'worker-3'],
      ['worker-3', 'deleted', null],
    ]);
    expect(deriveOverlaps(recorded['blind-del']!).every((o) => o.holders.length === 2)).toBe(true);
  });

  it('setnx-no-expiry: the killed holder’s lock outlives it', () => {
    const leases = deriveLeases(recorded['setnx-no-expiry']!);
    expect(leases).toHaveLength(1);
    expect(leases[0]!.end.kind).toBe('never-released');
    const lanes = deriveLanes(recorded['setnx-no-expiry']!);
    const dead = lanes.find((l) => l.workerId === leases[0]!.workerId)!;
    expect(dead.died).toBe(true);
    expect(dead.marks.filter((m) => m.kind === 'death')).toHaveLength(1);
  });

  it('no-lock: every worker writes', () => {
    const lanes = deriveLanes(recorded['no-lock']!);
    for (const lane of lanes) expect(lane.marks.some((m) => m.kind === 'write-accepted')).toBe(true);
  });
});

// The scorecard's second part without a run: its rows are the variants of each library's
// scenario at the version server/package.json pins, every fault says what it runs (or why
// nothing) for each of those scenarios at parameters the scenario takes, and a run reads as
// its scenario's own invariant: held is correct, broken by too many is duplicate work.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judge, resolveParams, type Metrics } from '@racelab/shared';
import { loadCatalog } from '../scenarios/registry.js';
import type { CellRun } from './matrix.js';
import { STACK_FAULTS } from './stackFaults.js';
import { classifyStack, pinnedVersion, STACK_LIBRARIES, stackRows } from './stacks.js';

const catalog = await loadCatalog();
const pinned = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }
).dependencies;

describe("the scorecard's second part", () => {
  it('has a row for every variant of the job queue, the scheduler, the PostgreSQL queue and the pooler, at the pinned versions', () => {
    const rows = stackRows(STACK_LIBRARIES, catalog.manifests);
    expect(rows.map((r) => r.id)).toEqual([
      'stalled-job-plain-insert',
      'stalled-job-unique-job-id',
      'stalled-job-fenced-attempt',
      'cron-every-replica-every-replica',
      'cron-every-replica-lock-per-slot',
      'cron-every-replica-unique-slot-row',
      'expired-job-plain-insert',
      'expired-job-unique-job-id',
      'expired-job-complete-in-transaction',
      'pooled-advisory-lock-session-lock',
      'pooled-advisory-lock-xact-lock',
    ]);
    for (const library of ['bullmq', 'croner', 'pg-boss']) {
      expect(rows.find((r) => r.library === library)!.version).toBe(pinned[library]);
      expect(pinnedVersion(library)).toBe(pinned[library]);
    }
    expect(rows.filter((r) => r.correct).map((r) => r.variant)).not.toContain('plain-insert');
    expect(() => pinnedVersion('left-pad')).toThrow("server/package.json pins no 'left-pad'");
  });

  it('names, under every fault, a run or a reason for each library, and each run at parameters its scenario takes', () => {
    for (const fault of STACK_FAULTS) {
      expect(Object.keys(fault.plans).sort(), fault.id).toEqual(STACK_LIBRARIES.map((l) => l.scenario).sort());
      for (const [scenario, plan] of Object.entries(fault.plans)) {
        if ('verdict' in plan) {
          expect(plan.note.length, `${fault.id} × ${scenario}`).toBeGreaterThan(20);
          continue;
        }
        const manifest = catalog.manifests.find((m) => m.id === scenario)!;
        for (const variant of manifest.variants) {
          const resolved = resolveParams(manifest, variant.id, plan.params);
          expect(resolved.ok, `${fault.id} × ${scenario}/${variant.id}`).toBe(true);
        }
      }
    }
    // Each library runs under one fault at least.
    for (const { scenario } of STACK_LIBRARIES)
      expect(
        STACK_FAULTS.some((f) => !('verdict' in f.plans[scenario]!)),
        scenario,
      ).toBe(true);
  });

  it('reads a run through its scenario’s invariant: held is correct, too many is duplicate work, too few is stuck', () => {
    const manifest = catalog.manifests.find((m) => m.id === 'stalled-job')!;
    const expectations = catalog.scenarios.get('stalled-job')!.expectations({});
    const read = (metrics: Metrics, reason?: string): ReturnType<typeof classifyStack> =>
      classifyStack({
        metrics,
        manifest,
        ...judge(expectations, metrics),
        expected: { verdict: 'fail', ...(reason ? { reason } : {}) },
      } as unknown as CellRun);
    expect(read({ charges: 1, jobStarts: 2 })).toEqual({
      verdict: 'correct',
      note: 'the card is charged once: Charges: 1, Job started (times): 2',
    });
    const twice = read({ charges: 2, jobStarts: 2 }, 'a reason');
    expect(twice.verdict).toBe('duplicate work');
    expect(twice.note).toBe(
      'Charges: 2 — should be 1 (the card is charged once); Job started (times): 2; expected at these parameters: a reason',
    );
    expect(read({ charges: 0, jobStarts: 1 }).verdict).toBe('stuck lock');
  });
});

// Every variant of the catalog once, at its defaults: it gets the verdict its manifest
// expects there (broken ones FAIL, correct ones PASS, a trap as declared), and every lease
// it reports says when its validity starts counting (`fromMs`): the moment the granting
// command was sent, at or after the worker asked and at or before it reported the grant.
// The page ends a lease at fromMs + ttlMs, so a reply that comes back late (a busy machine,
// a WAIT for a replica, a fence fetched after the SET) never draws a lease that Redis had
// already let expire. The browser suite (e2e/tests/catalog.spec.ts) runs a broken and a
// correct variant of each scenario from the page; every variant's verdict is held here.
// A variant this server cannot run (a command its Redis lacks) is not played: its start is
// held to a refusal with its reason instead, each named with its reason in a test's title.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground, play } from '../testing/testPlayground.js';
import { catalogHere, refusedHere } from '../testing/catalogHere.js';

const here = await catalogHere();
const variants = here.manifests.flatMap((m) =>
  m.variants.map((v) => ({ scenario: m.id, variant: v.id, refused: refusedHere(here, m.id, v.id) })),
);
const refused = variants.filter((v) => v.refused !== null);

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(4);
});
afterAll(() => playground.close());

/** Problems with the lease clocks of one run's events; empty when all is well. */
function leaseClockProblems(events: RunEvent[]): string[] {
  const problems: string[] = [];
  // Worker + key → when it asked, for asks no grant has answered yet (a worker may run
  // several jobs at once, as hot-key's do, so asks and grants interleave).
  const asks = new Map<string, number[]>();
  for (const e of events) {
    const slot = `${e.workerId} ${'key' in e ? e.key : ''}`;
    if (e.type === 'lease-requested') asks.set(slot, [...(asks.get(slot) ?? []), e.atMs]);
    if ((e.type === 'lease-acquired' && e.ttlMs !== null) || e.type === 'lease-expiry-set') {
      if (e.fromMs === undefined) problems.push(`${e.type} of ${e.workerId} at ${e.atMs} ms has no fromMs`);
      else if (e.fromMs > e.atMs) problems.push(`${e.type} of ${e.workerId}: fromMs ${e.fromMs} after the event (${e.atMs})`);
      else if (e.type === 'lease-acquired' && asks.has(slot)) {
        // (token-stampede's servers do not report their asks: thousands of requests)
        const open = asks.get(slot)!;
        let answered = open.length - 1;
        while (answered >= 0 && open[answered]! > e.fromMs) answered--;
        if (answered < 0)
          problems.push(`lease-acquired of ${e.workerId}: fromMs ${e.fromMs} before it asked (${open.join(', ') || 'every ask answered'})`);
        else open.splice(answered, 1);
      }
    }
  }
  return problems;
}

describe('the catalog at its defaults', () => {
  it('every variant gets the verdict its manifest expects, and counts each lease from when its command was sent', async () => {
    const all = variants.filter((v) => v.refused === null).map((v) => [v.scenario, v.variant] as const);
    const leases = new Map<string, number>();
    const problems: string[] = [];
    const verdicts: string[] = [];
    const expectedVerdicts: string[] = [];
    let next = 0;
    // Four runs at a time; each variant's own choreography keeps its run what it is alone.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < all.length) {
          const [scenario, variant] = all[next++]!;
          const { events, outcome, verdict, metrics } = await play(playground, scenario, variant);
          const manifest = playground.catalog.manifests.find((m) => m.id === scenario)!;
          const expected = manifest.variants.find((v) => v.id === variant)!.expected![0]!;
          // The run's own word on what it expects agrees with the manifest's, and the verdict with both.
          if (outcome.status === 'finished' && !isDeepStrictEqual(outcome.expected, expected))
            problems.push(
              `${scenario}/${variant}: the run expects ${JSON.stringify(outcome.expected)}, the manifest ${JSON.stringify(expected)}`,
            );
          verdicts.push(`${scenario}/${variant}: ${verdict} ${JSON.stringify(metrics)}`);
          expectedVerdicts.push(`${scenario}/${variant}: ${expected.verdict} ${JSON.stringify(metrics)}`);
          leases.set(`${scenario}/${variant}`, events.filter((e) => e.type === 'lease-acquired' && e.ttlMs !== null).length);
          problems.push(...leaseClockProblems(events).map((p) => `${scenario}/${variant}: ${p}`));
        }
      }),
    );
    expect(problems).toEqual([]);
    expect(verdicts.sort()).toEqual(expectedVerdicts.sort());
    // The check saw leases with expiries: the variants that take one did.
    expect(leases.get('duplicate-job/token-lua')).toBeGreaterThan(0);
    expect(leases.get('failover/wait-replica')).toBeGreaterThan(0);
    expect(leases.get('redlock/redlock')).toBeGreaterThan(0);
    expect([...leases.values()].filter((n) => n > 0).length).toBeGreaterThan(20);
  }, 300_000);

  it.each(refused.map((v) => [v.refused, v.scenario, v.variant] as const))(
    'not played here, its start refused: %s',
    (reason, scenario, variant) => {
      expect(playground.prepare({ scenario, variant, params: {} })).toEqual({ ok: false, error: reason });
    },
  );

  it('finds a lease that says nothing of its clock, or says a time after its grant', () => {
    const base = { seq: 0, workerId: 'worker-1' } as const;
    expect(
      leaseClockProblems([
        { ...base, atMs: 5, type: 'lease-requested', key: 'k' },
        { ...base, atMs: 9, type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 6 },
        { ...base, atMs: 9, type: 'lease-acquired', key: 'k', ttlMs: 100 },
        { ...base, atMs: 20, type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 30 },
        { ...base, atMs: 40, type: 'lease-requested', key: 'k' },
        { ...base, atMs: 50, type: 'lease-acquired', key: 'k', ttlMs: 100, fromMs: 35 },
        { ...base, atMs: 60, type: 'lease-acquired', key: 'k', ttlMs: null },
      ]),
    ).toEqual([
      'lease-acquired of worker-1 at 9 ms has no fromMs',
      'lease-acquired of worker-1: fromMs 30 after the event (20)',
      'lease-acquired of worker-1: fromMs 35 before it asked (40)',
    ]);
  });
});

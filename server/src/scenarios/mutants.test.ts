// Every correct variant against its near-misses. A mutant is a variant's code with one
// classic mistake (a plain DEL release, no re-check after the lock, no guard in the
// UPDATE, a write that bypasses the fence); each must turn the verdict red at the declared
// parameter set it names, where the variant it mutates is expected to pass and does. That
// variant is a correct one, or a broken one at a set where its guard is what makes it pass
// (wait-replica when no replica acknowledges). A verdict that no near-miss can turn red
// would check nothing. A near-miss of a variant this server cannot run (a command its Redis
// lacks) is not played: its start is held to a refusal with its variant's reason instead.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatParam, type Params } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground, play, type Played } from '../testing/testPlayground.js';
import { catalogHere, refusedHere } from '../testing/catalogHere.js';

const catalog = await catalogHere();
const nearMisses = [...catalog.scenarios.values()].flatMap((scenario) =>
  (scenario.mutants ?? []).map((mutant) => ({ scenario, mutant, refused: refusedHere(catalog, scenario.id, mutant.of) })),
);
const playable = nearMisses.filter((n) => n.refused === null);
const refused = nearMisses.filter((n) => n.refused !== null);

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(4);
});
afterAll(() => playground.close());

const setWords = (set: Params): string =>
  Object.keys(set).length === 0
    ? 'defaults'
    : Object.entries(set)
        .map(([k, v]) => `${k}=${formatParam(v)}`)
        .join(' ');

// The variant a mutant mutates, run once per parameter set however many mutants share it.
const originals = new Map<string, Promise<Played>>();
function original(scenario: string, variant: string, set: Params): Promise<Played> {
  const key = `${scenario} ${variant} ${JSON.stringify(set)}`;
  if (!originals.has(key)) originals.set(key, play(playground, scenario, variant, set));
  return originals.get(key)!;
}

describe('near-misses', () => {
  it("there are at least 39, each at one of its scenario's declared sets, of a variant expected to pass there", () => {
    expect(nearMisses.length).toBeGreaterThanOrEqual(39);
    const problems = nearMisses.flatMap(({ scenario, mutant }) => {
      const sets = [{}, ...(scenario.stabilityParams ?? [])];
      const at = sets.findIndex((set) => isDeepStrictEqual(set, mutant.failsAt));
      const of = catalog.manifests.find((m) => m.id === scenario.id)!.variants.find((v) => v.id === mutant.of);
      const passesThere = at >= 0 && of?.expected?.[at]?.verdict === 'pass';
      return [
        ...(of ? [] : [`${scenario.id}/${mutant.id}: mutates '${mutant.of}', which is not a variant`]),
        ...(at >= 0 ? [] : [`${scenario.id}/${mutant.id}: fails at [${setWords(mutant.failsAt)}], not a declared set`]),
        ...(of && at >= 0 && !passesThere
          ? [`${scenario.id}/${mutant.id}: '${mutant.of}' is not expected to pass at [${setWords(mutant.failsAt)}]`]
          : []),
        ...(scenario.variants.some((v) => v.id === mutant.id) ? [`${scenario.id}/${mutant.id}: has a variant's id`] : []),
      ];
    });
    expect(problems).toEqual([]);
  });

  it.each(refused.map(({ scenario, mutant, refused }) => [`${scenario.id}/${mutant.id}`, refused, scenario.id, mutant.id] as const))(
    '%s is not played here, its start refused as its variant is: %s',
    (_name, reason, scenario, mutant) => {
      expect(playground.prepare({ scenario, variant: mutant, params: {}, mutants: true })).toEqual({ ok: false, error: reason });
    },
  );

  // A few at a time (the config's maxConcurrency): each mutant's choreography keeps its run
  // what it is alone, as the crowd test shows for thirty pages at once.
  it.concurrent.each(playable.map(({ scenario, mutant }) => [`${scenario.id}/${mutant.id}`, scenario, mutant] as const))(
    '%s turns the verdict red where the variant it mutates passes',
    async (_name, scenario, mutant) => {
      const [correct, mutated] = await Promise.all([
        original(scenario.id, mutant.of, mutant.failsAt),
        play(playground, scenario.id, mutant.id, mutant.failsAt, undefined, { mutants: true }),
      ]);
      const shown = `${scenario.id}/${mutant.of} at [${setWords(mutant.failsAt)}]`;
      expect(correct.outcome.status === 'finished' && correct.outcome.expected.verdict, `${shown} is expected to pass`).toBe('pass');
      expect(correct.verdict, `${shown}: ${JSON.stringify(correct.metrics)}`).toBe('pass');
      expect(mutated.verdict, `${mutant.id} (${mutant.mistake}): ${JSON.stringify(mutated.metrics)}`).toBe('fail');
      // A mutant expects nothing else of itself: it is a broken variant with no excuses.
      expect(mutated.outcome.status === 'finished' && mutated.outcome.expected).toEqual({ verdict: 'fail' });
    },
    120_000,
  );
});

// Every scenario is an exercise (its folder's exercise.ts): a broken variant to start from, a
// correct one as the reference solution, hints in order, a reason for each declared set, and
// a near-miss of the solution that tells a half-fix from a fix. No run here: what the
// definitions say, against the catalog. A scenario added without an exercise fails here.
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ScenarioManifest } from '@racelab/shared';
import { loadCatalog, type AnyScenario } from './registry.js';

// The fixture `tally` is a scenario like any other: it must be an exercise too.
process.env.RACELAB_SCENARIOS = fileURLToPath(new URL('../../dist/testing/fixtures/scenarios/', import.meta.url));
const catalog = await loadCatalog();
delete process.env.RACELAB_SCENARIOS;

const scenarios = [...catalog.scenarios.values()];
const manifestOf = (id: string): ScenarioManifest => catalog.manifests.find((m) => m.id === id)!;

// A hint is a sentence or two a learner reads at once, not a paragraph and not a word.
const HINT_CHARS = { min: 40, max: 420 };
// A line of the solution this long, or longer, and not in the starting code, is code a hint must not copy whole.
const COPIED_LINE_CHARS = 30;

/** The lines of a variant's code that carry code (not comments), long enough to give a solution away. */
function codeLines(code: string): string[] {
  return code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= COPIED_LINE_CHARS && !line.startsWith('//') && !line.startsWith('*') && !line.startsWith('/*'));
}

/** What is wrong with a scenario as an exercise, in lines that name it; empty when nothing is. */
function exerciseProblems(scenario: AnyScenario, manifest: ScenarioManifest): string[] {
  const exercise = scenario.exercise;
  if (!exercise) return [`${scenario.id}: has no exercise (add exercise.ts and \`exercise: EXERCISE\` to its index.ts)`];
  const from = manifest.variants.find((v) => v.id === exercise.from);
  const solution = manifest.variants.find((v) => v.id === exercise.solution);
  const sets = scenario.stabilityParams ?? [];
  const problems = [
    ...(from ? [] : [`${scenario.id}: starts from '${exercise.from}', which is not one of its variants`]),
    ...(from?.correct ? [`${scenario.id}: starts from '${exercise.from}', a correct variant`] : []),
    ...(solution ? [] : [`${scenario.id}: its solution '${exercise.solution}' is not one of its variants`]),
    ...(solution && !solution.correct ? [`${scenario.id}: its solution '${exercise.solution}' is a broken variant`] : []),
    ...(exercise.setReasons.length === sets.length
      ? []
      : [`${scenario.id}: ${exercise.setReasons.length} set reasons for ${sets.length} declared sets`]),
    ...exercise.setReasons.flatMap((reason, i) =>
      reason.trim().length >= 20 && !reason.includes('\n') ? [] : [`${scenario.id}: the reason of declared set ${i + 1} is not a line`],
    ),
    ...(exercise.hints.length >= 2 && exercise.hints.length <= 3 ? [] : [`${scenario.id}: ${exercise.hints.length} hints (two or three)`]),
    ...exercise.hints.flatMap((hint, i) =>
      hint.length >= HINT_CHARS.min && hint.length <= HINT_CHARS.max && /^[A-Z]/.test(hint) && /[.!?]$/.test(hint)
        ? []
        : [`${scenario.id}: hint ${i + 1} is not a sentence of ${HINT_CHARS.min}–${HINT_CHARS.max} characters`],
    ),
  ];
  if (!from || !solution) return problems;

  // Graded: the defaults and each declared set where the solution is expected to pass.
  const graded = solution.expected!.flatMap((e, i) => (e.verdict === 'pass' ? [i] : []));
  // A line the learner's starting code has too gives nothing away.
  const given = new Set(codeLines(from.code));
  const copied = codeLines(solution.code).filter((line) => !given.has(line) && exercise.hints.some((hint) => hint.includes(line)));
  const nearMisses = (scenario.mutants ?? []).filter(
    (m) => m.of === solution.id && graded.some((i) => isDeepStrictEqual([{}, ...sets][i], m.failsAt)),
  );
  return [
    ...problems,
    ...(graded.includes(0) ? [] : [`${scenario.id}: its solution '${solution.id}' is not expected to pass at the defaults`]),
    ...(graded.some((i) => from.expected![i]!.verdict === 'fail')
      ? []
      : [`${scenario.id}: '${from.id}' is expected to pass wherever the fix is graded: there is nothing to fix`]),
    ...copied.map((line) => `${scenario.id}: a hint copies the solution's line \`${line}\``),
    ...(nearMisses.length > 0 ? [] : [`${scenario.id}: its solution '${solution.id}' has no near-miss (mutant) failing at a graded set`]),
  ];
}

describe('exercises', () => {
  it('every scenario of the catalog is one, the fixture tally included', () => {
    expect(scenarios.map((s) => s.id)).toContain('tally');
    expect(scenarios.filter((s) => !s.exercise).map((s) => s.id)).toEqual([]);
  });

  it('each starts from a broken variant, graded where its correct solution passes, with a reason for each declared set', () => {
    expect(scenarios.flatMap((s) => exerciseProblems(s, manifestOf(s.id)))).toEqual([]);
  });

  it('each solution has a near-miss that fails at a graded set, so a half-fix is named (none lacks one)', () => {
    const lacking = scenarios.filter((s) => !(s.mutants ?? []).some((m) => m.of === s.exercise?.solution)).map((s) => s.id);
    expect(lacking).toEqual([]);
  });

  it('finds a scenario without an exercise, a swapped pair, a reason missing, a hint copied from the solution', () => {
    const scenario = catalog.scenarios.get('duplicate-job')!;
    const manifest = manifestOf('duplicate-job');
    const exercise = scenario.exercise!;
    const solutionLine = codeLines(manifest.variants.find((v) => v.id === exercise.solution)!.code).find((l) =>
      l.includes('releaseIfMine('),
    )!;
    expect(exerciseProblems({ ...scenario, exercise: undefined }, manifest)).toEqual([
      'duplicate-job: has no exercise (add exercise.ts and `exercise: EXERCISE` to its index.ts)',
    ]);
    expect(
      exerciseProblems({ ...scenario, exercise: { ...exercise, from: exercise.solution, solution: exercise.from } }, manifest),
    ).toEqual(
      expect.arrayContaining([
        "duplicate-job: starts from 'token-lua', a correct variant",
        "duplicate-job: its solution 'blind-del' is a broken variant",
      ]),
    );
    expect(exerciseProblems({ ...scenario, exercise: { ...exercise, setReasons: exercise.setReasons.slice(1) } }, manifest)).toEqual([
      'duplicate-job: 3 set reasons for 4 declared sets',
    ]);
    const copying = { ...exercise, hints: [exercise.hints[0], `Write this: ${solutionLine}.`] as [string, string] };
    expect(exerciseProblems({ ...scenario, exercise: copying }, manifest)).toEqual([
      `duplicate-job: a hint copies the solution's line \`${solutionLine}\``,
    ]);
  });
});

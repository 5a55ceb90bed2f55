// Runs every variant (or one scenario's) N times in a row, at its defaults and at each
// parameter set the scenario declares in `stabilityParams` (or only at the parameters
// given), and prints how many runs gave the same verdict and metrics:
//   npm run stability -- [--times 100] [--scenario <id>] [--except <id> ...] [--variant <id>]
//                        [--param k=v ...] [--defaults-only | --declared-only] [--load] [--parallel N]
// (--declared-only leaves out the defaults: a long pass can be run in parts.)
// --load keeps the other core busy the whole time (a child process spinning a busy loop),
// so the verdicts are shown not to depend on an idle machine. --parallel N runs N variant ×
// parameter sets at once (each set's runs still one after another): a shorter pass under
// a heavier load, since every run then also competes with N - 1 others.
// --mutants runs the scenarios' near-misses instead, each at the set where it must fail.
// A variant (or a near-miss of one) this server cannot run is not run: its line says why.
// Exit 1 when any variant is not stable at any set, or gives another verdict than the one
// expected there (see `expectedOtherwise`): a verdict that depends on luck is a bug, and so is
// a correct variant that fails, or a near-miss that passes, where nothing says it should.
import { spawn } from 'node:child_process';
import {
  formatParam,
  resolveParams,
  unavailableHere,
  unknownScenario,
  unknownVariant,
  type ExpectedVerdict,
  type Params,
} from '@racelab/shared';
import { intOption, readOptions, splitParam, Playground, expectedOf, loadCatalog, findServices } from '@racelab/server';

const USAGE = `usage: npm run stability -- [--times 20] [--scenario <id>] [--except <id> ...] [--variant <id>]
         [--param name=value ...] [--defaults-only | --declared-only] [--mutants] [--load] [--parallel N]`;
const values = readOptions(USAGE, {
  times: { type: 'string', default: '20' },
  scenario: { type: 'string' },
  except: { type: 'string', multiple: true, default: [] },
  variant: { type: 'string' },
  param: { type: 'string', multiple: true, default: [] },
  load: { type: 'boolean', default: false },
  mutants: { type: 'boolean', default: false },
  'defaults-only': { type: 'boolean', default: false },
  'declared-only': { type: 'boolean', default: false },
  parallel: { type: 'string', default: '1' },
});
const times = intOption('times', values.times, 1, 10_000);
const parallel = intOption('parallel', values.parallel, 1, 12);
if (values['defaults-only'] && values['declared-only']) {
  console.error('--defaults-only and --declared-only leave nothing to run together; give one');
  process.exit(2);
}
let given: Record<string, string> = {};
try {
  given = Object.fromEntries(values.param.map(splitParam));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
// Names are checked before any service is touched: a pass that matches nothing would
// report "0/0 stable" and exit 0, a check that cannot fail.
const catalog = await loadCatalog();
for (const id of [values.scenario, ...values.except]) {
  if (id !== undefined && !catalog.manifests.some((m) => m.id === id)) {
    console.error(unknownScenario(id, catalog.manifests));
    process.exit(2);
  }
}
if (values.variant !== undefined) {
  const among = catalog.manifests.filter((m) => !values.scenario || m.id === values.scenario);
  if (!among.some((m) => m.variants.some((v) => v.id === values.variant))) {
    // Within one scenario, the page's words; across all, every variant id there is.
    const known = [...new Set(among.flatMap((m) => m.variants.map((v) => v.id)))].join(', ');
    console.error(among.length === 1 ? unknownVariant(values.variant, among[0]!) : `unknown variant '${values.variant}'; known: ${known}`);
    process.exit(2);
  }
}

// One busy loop: with two cores, the other one is taken the whole time.
const load = values.load ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : undefined;
const stopLoad = (): void => void load?.kill('SIGKILL');
process.on('exit', stopLoad);

const services = await findServices();
const playground = await Playground.open({ ...services, poolSize: 4 });
// Ctrl-C or SIGTERM: the runs going are cancelled and clean up (no key or schema is left
// behind), the sets not finished are not reported, and the pass ends with exit code 130.
// Set by a signal handler: the cast keeps the compiler from taking it for null for good.
let stoppedBy = null as string | null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stoppedBy) return;
    stoppedBy = signal;
    stopLoad();
    playground.cancelAll(`the stability pass was stopped (${signal})`);
  });
}
let unstable = 0;
let unexpected = 0;
let reported = 0;
const started = Date.now();
console.log(
  `stability: ${times} runs of each variant at each parameter set${values.load ? ', the other core kept busy (--load)' : ''}${parallel > 1 ? `, ${parallel} sets at once` : ''}`,
);

interface Combo {
  scenario: string;
  variant: string;
  set: Record<string, unknown>;
  expected: ExpectedVerdict;
}
const combos: Combo[] = [];
/** "duplicate-job/token-delex is unavailable here: …", for each variant or near-miss chosen that this server refuses. */
const notRun: string[] = [];
const runsHere = (manifest: (typeof playground.catalog.manifests)[number], variant: string, shown = variant): boolean => {
  const refused = unavailableHere(manifest, variant);
  if (refused) notRun.push(`${manifest.id} ${shown}: not run, ${refused}`);
  return refused === null;
};
for (const manifest of playground.catalog.manifests) {
  if (values.scenario && manifest.id !== values.scenario) continue;
  if (values.except.includes(manifest.id)) continue;
  const scenario = playground.catalog.scenarios.get(manifest.id)!;
  const declared = values['defaults-only'] ? [] : (scenario.stabilityParams ?? []);
  const sets: Record<string, unknown>[] = values.param.length > 0 ? [given] : values['declared-only'] ? declared : [{}, ...declared];
  if (values.param.length === 0 && !values['defaults-only'] && (scenario.stabilityParams ?? []).length < 2) {
    console.log(`${manifest.id}: declares ${(scenario.stabilityParams ?? []).length} stabilityParams sets (two expected)`);
  }
  if (values.mutants) {
    // Each near-miss where it must show: red there, though the variant it mutates is not.
    for (const mutant of scenario.mutants ?? []) {
      if (values.variant && mutant.of !== values.variant && mutant.id !== values.variant) continue;
      if (!runsHere(manifest, mutant.of, mutant.id)) continue;
      const set = values.param.length > 0 ? given : mutant.failsAt;
      const resolved = resolveParams(manifest, mutant.of, { ...mutant.defaults, ...set });
      if (!resolved.ok) throw new Error(`${manifest.id} ${mutant.id}: ${resolved.error}`);
      combos.push({ scenario: manifest.id, variant: mutant.id, set, expected: expectedOf(mutant, resolved.params) });
    }
    continue;
  }
  for (const variant of manifest.variants) {
    if (values.variant && variant.id !== values.variant) continue;
    if (!runsHere(manifest, variant.id)) continue;
    for (const set of sets) {
      const resolved = resolveParams(manifest, variant.id, set);
      if (!resolved.ok) throw new Error(`${manifest.id} ${variant.id}: ${resolved.error}`);
      const definition = scenario.variants.find((v) => v.id === variant.id)!;
      combos.push({ scenario: manifest.id, variant: variant.id, set, expected: expectedOf(definition, resolved.params) });
    }
  }
}

/** One variant at one parameter set, `times` runs in a row; prints its line. */
async function runCombo({ scenario, variant, set, expected }: Combo): Promise<void> {
  const shown =
    Object.keys(set).length === 0
      ? 'defaults'
      : Object.entries(set)
          .map(([k, v]) => `${k}=${formatParam(v as Params[string])}`)
          .join(' ');
  const seen = new Map<string, number>();
  const began = Date.now();
  for (let i = 0; i < times; i++) {
    if (stoppedBy) return;
    const prepared = playground.prepare({ scenario, variant, params: set, mutants: values.mutants });
    if (!prepared.ok) throw new Error(prepared.error);
    const outcome = await prepared.run.start();
    const signature = outcome.status === 'finished' ? `${outcome.verdict} ${JSON.stringify(outcome.metrics)}` : `error ${outcome.message}`;
    if (stoppedBy) return;
    seen.set(signature, (seen.get(signature) ?? 0) + 1);
  }
  const [top, count] = [...seen.entries()].sort((a, b) => b[1] - a[1])[0]!;
  if (seen.size > 1) unstable++;
  // Every run, not only the most common one, must give the verdict expected at this set.
  const asExpected = [...seen.keys()].every((signature) => signature.startsWith(`${expected.verdict} `));
  if (!asExpected) unexpected++;
  const ms = Math.round((Date.now() - began) / times);
  const why = expected.reason ? ` (expected ${expected.verdict} here: ${expected.reason})` : '';
  const lines = [
    `${scenario} ${variant} [${shown}]: ${count}/${times} same (${ms} ms a run) ${top}${asExpected ? why : `  ← NOT as expected: ${expected.verdict}${why}`}`,
  ];
  if (seen.size > 1) for (const [signature, n] of seen) if (signature !== top) lines.push(`    also ${n}× ${signature}`);
  console.log(lines.join('\n'));
  reported++;
}

for (const line of notRun) console.log(line);
try {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < combos.length && !stoppedBy) await runCombo(combos[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, combos.length) }, lane));
} finally {
  await playground.close();
  await services.stop();
  stopLoad();
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const sets = stoppedBy
  ? `${reported - unstable}/${reported} variant × parameter sets finished (of ${combos.length}; stopped by ${stoppedBy})`
  : `${combos.length - unstable}/${combos.length} variant × parameter sets`;
const skipped = notRun.length > 0 ? `; ${notRun.length} not run here (unavailable, said above)` : '';
console.log(
  `stability: ${sets} stable over ${times} runs each (${minutes} min)${unexpected ? `; ${unexpected} NOT as expected` : '; every verdict as expected'}${skipped}`,
);
// Nothing chosen could run here: refused, as a start of it is (exit 2), not passed.
process.exitCode = unstable > 0 || unexpected > 0 ? 1 : stoppedBy ? 130 : combos.length === 0 && notRun.length > 0 ? 2 : 0;

// Runs every variant (or one scenario's) N times in a row at its defaults, or at the
// parameters given, and prints how many runs gave the same verdict and metrics:
//   npm run stability -- [--times 20] [--scenario <id>] [--variant <id>] [--param k=v ...]
// Exit 1 when any variant is not stable: a verdict that depends on luck is a bug.
import { parseArgs } from 'node:util';
import { Playground } from './runs/playground.js';
import { findServices } from './services/index.js';

const { values } = parseArgs({
  options: {
    times: { type: 'string', default: '20' },
    scenario: { type: 'string' },
    variant: { type: 'string' },
    param: { type: 'string', multiple: true, default: [] },
  },
});
const times = Number(values.times);
if (!Number.isInteger(times) || times < 1 || times > 10_000) {
  console.error(`--times must be an integer from 1 to 10000, got ${values.times}`);
  process.exit(2);
}
const params = Object.fromEntries(
  values.param.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

const services = await findServices();
const playground = await Playground.open({ ...services, poolSize: 4 });
let unstable = 0;
try {
  for (const manifest of playground.catalog.manifests) {
    if (values.scenario && manifest.id !== values.scenario) continue;
    for (const variant of manifest.variants) {
      if (values.variant && variant.id !== values.variant) continue;
      const seen = new Map<string, number>();
      const started = Date.now();
      for (let i = 0; i < times; i++) {
        const prepared = playground.prepare({ scenario: manifest.id, variant: variant.id, params });
        if (!prepared.ok) throw new Error(prepared.error);
        const outcome = await prepared.run.start();
        const signature =
          outcome.status === 'finished' ? `${outcome.verdict} ${JSON.stringify(outcome.metrics)}` : `error ${outcome.message}`;
        seen.set(signature, (seen.get(signature) ?? 0) + 1);
      }
      const [top, count] = [...seen.entries()].sort((a, b) => b[1] - a[1])[0]!;
      if (seen.size > 1) unstable++;
      const ms = Math.round((Date.now() - started) / times);
      console.log(`${manifest.id} ${variant.id}: ${count}/${times} same (${ms} ms a run) ${top}`);
      if (seen.size > 1) for (const [signature, n] of seen) if (signature !== top) console.log(`    also ${n}× ${signature}`);
    }
  }
} finally {
  await playground.close();
  await services.stop();
}
process.exitCode = unstable > 0 ? 1 : 0;

// Bundles the worker process (dist/worker/workerMain.js) with racelab's own scenarios and
// the store clients into dist/worker/bundle/workerBundle.js: a worker forked from it is
// ready in about half the CPU time of one that resolves and loads the ~400 modules of the
// built tree one by one, and a run forks a worker per part. Each npm lock library is a
// chunk of its own beside it, loaded by the runs of its variants only (its adapter imports
// it in create()): they were over half the bundle, and a run of another variant loaded and
// compiled them all. Scenario folders of RACELAB_SCENARIOS and a lock module of your own are
// still loaded by path when the worker starts. @racelab/shared declares its modules free of
// side effects (its package.json), so the few of its functions a worker uses come without the
// protocol's zod schemas, which were a quarter of the bundle and a fifth of a worker's start-up
// CPU. Run after tsc (`npm run build -w server`).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const scenarios = path.join(dist, 'scenarios');
const builtins = path.join(scenarios, 'builtinScenarios.js');

/** Every scenario folder's index, as the registry finds them; their order does not matter (it sorts by teaching order). */
const indexes = readdirSync(scenarios, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => path.join(scenarios, d.name, 'index.js'))
  .filter(existsSync);

/** Replaces the registry's "found by folder" (BUILTIN_SCENARIOS = null) with the folders' indexes. */
const gatherScenarios = {
  name: 'racelab-builtin-scenarios',
  load(id) {
    if (path.resolve(id) !== builtins) return null;
    const imports = indexes.map((index, i) => `import scenario${i} from ${JSON.stringify(index)};`);
    return `${imports.join('\n')}\nexport const BUILTIN_SCENARIOS = [${indexes.map((_, i) => `scenario${i}`).join(', ')}];\n`;
  },
};

/**
 * pg picks its socket by asking whether it runs in a Cloudflare Worker, by building a
 * fetch Response: in Node that loads undici, about a tenth of a worker's start-up CPU
 * (~25 ms of ~290 here). A worker is always Node: its sockets are net's and tls's, as pg's
 * own Node branch makes them.
 */
const pgStreamForNode = {
  name: 'racelab-pg-stream-for-node',
  load(id) {
    if (!id.replaceAll(path.sep, '/').endsWith('/node_modules/pg/lib/stream.js')) return null;
    return `module.exports = {
  getStream: () => new (require('net').Socket)(),
  getSecureStream: (options) => require('tls').connect(options),
};
`;
  },
};

const bundleDir = path.join(dist, 'worker', 'bundle');
rmSync(bundleDir, { recursive: true, force: true }); // no chunk of an earlier build is left beside the new ones

await build({
  input: path.join(dist, 'worker', 'workerMain.js'),
  platform: 'node',
  plugins: [gatherScenarios, pgStreamForNode],
  // pg's native binding is optional and never used here.
  external: ['pg-native'],
  logLevel: 'warn',
  output: { dir: bundleDir, entryFileNames: 'workerBundle.js', chunkFileNames: '[name]-[hash].js', format: 'esm' },
});

// Workers are forked from the bundle the build makes (the test setup builds it too), so every
// run of the suite plays the bundled code that `npm start` plays; the bundle holds racelab's
// own scenarios itself and finds no scenario folder of its own at start.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { loadScenarios } from '../scenarios/registry.js';
import { WORKER_ENTRY, WORKER_EXEC_ARGV } from './entry.js';

it('forks the bundle, with no flags of the process that forks it', () => {
  expect(basename(WORKER_ENTRY)).toBe('workerBundle.js');
  expect(WORKER_EXEC_ARGV).toEqual(['--min-semi-space-size=16']);
  for (const flag of process.execArgv) expect(WORKER_EXEC_ARGV).not.toContain(flag);
});

it('gives a worker a young generation of 16 MB, so a run does not scavenge what start-up left', () => {
  const script = "console.log(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)";
  const size = Number(execFileSync(process.execPath, [...WORKER_EXEC_ARGV, '-e', script], { encoding: 'utf8' }));
  expect(size).toBeGreaterThanOrEqual(16 * 2 ** 20);
});

it('the bundle gathers every scenario folder the registry finds', async () => {
  const bundle = readFileSync(WORKER_ENTRY, 'utf8');
  const ids = [...(await loadScenarios()).keys()];
  expect(ids.length).toBeGreaterThan(10);
  for (const id of ids) expect(bundle, id).toContain(`id: "${id}"`);
  expect(bundle).not.toMatch(/BUILTIN_SCENARIOS = null/);
});

it("leaves out the protocol's schemas: a worker uses a few of @racelab/shared's functions and none of its zod", () => {
  // shared's package.json says its modules have no side effects, so the schemas nothing in a
  // worker reads are not built at every worker's start (a fifth of its start-up CPU).
  expect(readFileSync(WORKER_ENTRY, 'utf8')).not.toMatch(/^\/\/ (\.\.\/)*node_modules\/zod\//m);
});

it('leaves each lock library out of the bundle, in a chunk beside it that only its variants load', () => {
  const bundle = readFileSync(WORKER_ENTRY, 'utf8');
  const chunks = readdirSync(dirname(WORKER_ENTRY))
    .filter((name) => name !== basename(WORKER_ENTRY) && name.endsWith('.js'))
    .map((name) => readFileSync(join(dirname(WORKER_ENTRY), name), 'utf8'));
  for (const library of [
    'redlock',
    '@sesamecare-oss/redlock',
    'redis-semaphore',
    '@microfleet/ioredis-lock',
    'ioredfour',
    'advisory-lock',
  ]) {
    // The bundler marks each module it takes in with its path from where it ran: "// node_modules/redlock/redlock.js"
    // from the root, "// ../node_modules/redlock/redlock.js" from server/ (npm run build).
    const marker = new RegExp(`^// (\\.\\./)*node_modules/${library.replace(/[./]/g, (c) => `\\${c}`)}/`, 'm');
    expect(bundle, library).not.toMatch(marker);
    expect(
      chunks.filter((chunk) => marker.test(chunk)),
      library,
    ).toHaveLength(1);
  }
});

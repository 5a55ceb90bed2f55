// The script a worker process is forked from: always the built JavaScript (forking through a
// TypeScript loader costs ~360 ms a process, and tests that import the sources still fork
// the build), and the worker's bundle when the build made one (scripts/bundleWorker.mjs):
// one file, with a chunk for each lock library beside it, that a process loads in well under
// half the CPU time of the ~400 modules it holds.
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const builtWorker = (file: string): string =>
  fileURLToPath(new URL(`./${file}`, import.meta.url)).replace(`${sep}server${sep}src${sep}`, `${sep}server${sep}dist${sep}`);

const bundle = builtWorker('bundle/workerBundle.js');

export const WORKER_ENTRY = existsSync(bundle) ? bundle : builtWorker('workerMain.js');

/**
 * A worker runs with no flags of the process that forks it (a test runner's loaders and
 * conditions, an inspector's port): as racelab runs it, whoever started the server.
 */
export const WORKER_EXEC_ARGV: string[] = [];

// The script a worker process is forked from: always the built JavaScript (builtScript.ts),
// and the worker's bundle when the build made one (scripts/bundleWorker.mjs): one file, with
// a chunk for each lock library beside it, that a process loads in well under half the CPU
// time of the ~400 modules it holds.
import { existsSync } from 'node:fs';
import { builtScript } from '../services/builtScript.js';

const bundle = builtScript(new URL('./bundle/workerBundle.js', import.meta.url));

export const WORKER_ENTRY = existsSync(bundle) ? bundle : builtScript(new URL('./workerMain.js', import.meta.url));

/**
 * A worker runs with no flags of the process that forks it (a test runner's loaders and
 * conditions, an inspector's port): as racelab runs it, whoever started the server.
 */
export const WORKER_EXEC_ARGV: string[] = [];

// The script a worker process is forked from: always the built JavaScript (builtScript.ts),
// and the worker's bundle when the build made one (scripts/bundleWorker.mjs): one file, with
// a chunk for each lock library beside it, that a process loads in well under half the CPU
// time of the ~400 modules it holds.
import { existsSync } from 'node:fs';
import { builtScript } from '../services/builtScript.js';

const bundle = builtScript(new URL('./bundle/workerBundle.js', import.meta.url));

export const WORKER_ENTRY = existsSync(bundle) ? bundle : builtScript(new URL('./workerMain.js', import.meta.url));

/**
 * A worker runs with none of the flags of the process that forks it (a test runner's loaders
 * and conditions, an inspector's port): as racelab runs it, whoever started the server. It has
 * one of its own: a young generation that holds what its start-up and a run allocate. With
 * V8's default (1 MB, grown as it goes) a run's first scavenge copied what start-up had left,
 * about 11 ms of CPU inside the run for every worker on a 2-core machine, which pushed the
 * run's steps apart by 20 ms; with 16 MB, start-up scavenges less and a run not at all. Only
 * the pages used are committed: a worker's memory does not grow.
 */
export const WORKER_EXEC_ARGV: string[] = ['--min-semi-space-size=16'];

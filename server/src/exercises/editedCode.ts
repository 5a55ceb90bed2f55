// A learner's edited code made ready to run: compiled, written to a scratch folder of its own,
// and handed to runs as their own code (runs/ownCode.ts) under the variant `your-fix`, with
// the checkpoints, defaults and faults of the variant it was edited from and the solution's
// expected verdict (a fix is expected to pass where the solution does).
import { readFileSync } from 'node:fs';
import { EXERCISE_VARIANT_ID, type ExerciseCompileError } from '@racelab/shared';
import type { OwnCode, OwnWorkerLaunch } from '../runs/ownCode.js';
import { sourcePath } from '../scenarios/registry.js';
import type { VariantDefinition } from '../scenarios/types.js';
import { builtScript } from '../services/builtScript.js';
import { compileExercise, importsOf } from './compiler.js';
import type { Exercise } from './exerciseOf.js';
import { startExerciseWorkers } from './exerciseWorkers.js';
import { builtinsIn, type ImportRules } from './importRules.js';
import { writeScratchModule } from './scratchModule.js';

export interface EditedCode {
  ownCode: OwnCode;
  /** Removes the compiled module's folder: once every run of it is over. */
  remove(): Promise<void>;
}

export type Prepared = { ok: true; code: EditedCode } | { ok: false; errors: ExerciseCompileError[] };

/** The variant the server knows an edited run by: the from variant's shape, the solution's expected verdict. */
export function editedVariant({ from, solution }: Exercise): VariantDefinition<unknown> {
  return {
    id: EXERCISE_VARIANT_ID,
    title: `Your fix of ${from.title}`,
    correct: true,
    summary: `${from.title}, as you edited it`,
    source: from.source,
    ...(from.defaults ? { defaults: from.defaults } : {}),
    ...(from.faults ? { faults: from.faults } : {}),
    ...(from.checkpoints ? { checkpoints: from.checkpoints } : {}),
    ...(from.keyAliases ? { keyAliases: from.keyAliases } : {}),
    ...(solution.expectedOtherwise ? { expectedOtherwise: solution.expectedOtherwise } : {}),
    run: () => Promise.reject(new Error('edited code runs in workers of its own')),
  };
}

/** What an exercise's code may import: what its starting variant's file may, from where that file is built. */
export async function compileRules(exercise: Exercise): Promise<ImportRules> {
  const variantFile = builtScript(new URL(exercise.from.source)).replace(/\.ts$/, '.js');
  const ownBuiltins = builtinsIn(await importsOf(readFileSync(sourcePath(exercise.from.source), 'utf8')));
  return { variantFile, ownBuiltins };
}

/** Compiles `source` for `exercise` and writes it where its runs' workers load it. */
export async function prepareEditedCode(exercise: Exercise, source: string, redact: (text: string) => string): Promise<Prepared> {
  const compiled = await compileExercise(source, await compileRules(exercise));
  if (!compiled.ok) return compiled;
  const module = await writeScratchModule(compiled.code);
  const ownCode: OwnCode = {
    variant: editedVariant(exercise),
    moduleUrl: module.moduleUrl,
    startWorkers: (launches) => {
      const secret = launches.map(serverSecret).find(Boolean);
      if (secret) return Promise.reject(new Error(secret));
      return startExerciseWorkers(module.folder, launches, redact);
    },
  };
  return { ok: true, code: { ownCode, remove: module.remove } };
}

/**
 * Why a launch would hand the server's own password to edited code: a store that gave the run
 * no user of its own (it refused ACL users or roles), reached with a password in its URL.
 */
function serverSecret(launch: OwnWorkerLaunch): string | undefined {
  for (const [store, url] of [
    ['Redis', launch.redisUrl],
    ['PostgreSQL', launch.databaseUrl],
  ] as const) {
    const parsed = new URL(url);
    if (parsed.password && !decodeURIComponent(parsed.username).startsWith('racelab_run_')) {
      return `edited code does not run here: ${store} gives runs no user of their own, and the code would log in with the server's password`;
    }
  }
  return undefined;
}

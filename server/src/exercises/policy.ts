// Whether this server runs edited code: by default only when it is bound to this machine's
// loopback (only its own user's pages reach it), otherwise only when started with
// --allow-exercises. The sentence `why` is shown on the page as it is.
import { EXERCISE_COMMAND } from '@racelab/shared';

export interface ExercisePolicy {
  allowed: boolean;
  /** Why, in one sentence. */
  why: string;
}

/** The flag (and its environment variable) that lets a server reachable by others run edited code. */
export const ALLOW_EXERCISES_FLAG = '--allow-exercises';
export const ALLOW_EXERCISES_ENV = 'RACELAB_ALLOW_EXERCISES';

/** True for an address only this machine reaches. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** The policy of a server bound to `host`, started with the flag or not. */
export function exercisePolicy(host: string, flag: boolean): ExercisePolicy {
  if (isLoopback(host)) {
    return {
      allowed: true,
      why: `this server listens on ${host} only, so edited code runs here, in workers of their own limited to the run's stores and a scratch folder`,
    };
  }
  if (flag) {
    return {
      allowed: true,
      why: `this server was started with ${ALLOW_EXERCISES_FLAG}: edited code from any page that reaches it runs on its machine, in workers of their own limited to the run's stores and a scratch folder`,
    };
  }
  return {
    allowed: false,
    why: `this server is reachable from other machines, so it runs no edited code: start it with ${ALLOW_EXERCISES_FLAG} (or ${ALLOW_EXERCISES_ENV}=1) to allow it, or grade your file in a terminal with ${EXERCISE_COMMAND}`,
  };
}

/** What a server that was told nothing does (a test's, a tool's): no edited code. */
export const EXERCISES_OFF: ExercisePolicy = {
  allowed: false,
  why: `this server runs no edited code (it was not started to): grade your file in a terminal with ${EXERCISE_COMMAND}`,
};

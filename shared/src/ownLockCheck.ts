// Checking a lock module of your own from the page: the server runs `racelab check --lock`
// on the uploaded text only when it was started with --allow-own-locks. The answers of
// both endpoints, parsed by these schemas on the server's side (its tests) and the page's.
import { z } from 'zod';
import { Scorecard, ScorecardCell } from './scorecard.js';

/** GET: whether this server runs uploaded lock modules, and whether one is being checked now. */
export const OWN_LOCKS_PATH = '/api/own-locks';
/** POST the module's text (content-type text/javascript): the check's result. */
export const CHECK_LOCK_PATH = '/api/check-lock';
/** The largest module the server takes, in bytes. */
export const OWN_LOCK_MAX_BYTES = 256 * 1024;
/** What runs the same check from a terminal, said wherever the page cannot run it. */
export const CHECK_LOCK_COMMAND = 'npx racelab check --lock <file>';

export const OwnLocksStatus = z.object({ allowed: z.boolean(), busy: z.boolean() });
export type OwnLocksStatus = z.infer<typeof OwnLocksStatus>;

/** A check that ran to the end: its verdict, exit code (0 passed, 1 not) and every fault's cell. */
export const OwnLockChecked = z.object({
  name: z.string(),
  passed: z.boolean(),
  exitCode: z.number().int(),
  faults: Scorecard.shape.faults,
  cells: z.array(ScorecardCell),
});
export type OwnLockChecked = z.infer<typeof OwnLockChecked>;

/** Any refusal or failure, in words for the page. */
export const OwnLockError = z.object({ error: z.string() });

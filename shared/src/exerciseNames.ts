// An exercise's paths, ids and limits: plain values, apart from the schemas in exercise.ts, so a
// worker that names its edited variant loads none of zod (shared has no side effects, and a
// module of schemas would still build them at every worker's start).

/** GET: whether this server runs edited code, why (or why not), and every scenario's exercise. */
export const EXERCISES_PATH = '/api/exercises';
/** GET `${EXERCISES_PATH}/<scenario>/solution`: the reference solution, only when asked for. */
export const exerciseSolutionPath = (scenario: string): string => `${EXERCISES_PATH}/${scenario}/solution`;
/** POST the edited code (text/plain) to `${EXERCISES_PATH}/<scenario>/check`: one ExerciseProgress per line (NDJSON). */
export const exerciseCheckPath = (scenario: string): string => `${EXERCISES_PATH}/${scenario}/check`;
/** The variant id an edited exercise runs under, in runs, recordings and the timeline. */
export const EXERCISE_VARIANT_ID = 'your-fix';
/** The largest exercise source the server takes, in bytes. */
export const EXERCISE_MAX_BYTES = 64 * 1024;
/** What grades a file from a terminal, said wherever the page cannot. */
export const EXERCISE_COMMAND = 'npx racelab exercise <scenario> --file <file>';

// Exercises: a scenario's broken variant as a learner's starting point, graded the way the
// catalog is: the edited code runs as a variant on real workers, at the scenario's defaults
// and at every declared set where the correct variants pass, and the verdict comes from the
// stores. The answers of the server's exercise endpoints, parsed by these schemas on both sides.
import { z } from 'zod';

/** One parameter set an exercise is graded at: its name in words, its values, and what it exposes. */
export const ExerciseSet = z.object({
  /** In words, as the page and the CLI print it: "arrival late, lease 2 s, work 3 s, first fails". */
  label: z.string(),
  params: z.record(z.string(), z.union([z.number(), z.string(), z.array(z.union([z.number(), z.string()]))])),
  /** Why this set is here, in one line ("the defaults"; "worker-1's fetch outlasts its lease and fails"). */
  reason: z.string(),
});
export type ExerciseSet = z.infer<typeof ExerciseSet>;

/** A scenario's exercise as the page shows it before any run. */
export const ExerciseInfo = z.object({
  scenario: z.string(),
  title: z.string(),
  /** The broken variant the exercise starts from, and its source: the editor's first text. */
  start: z.object({ variant: z.string(), title: z.string(), code: z.string() }),
  /** In order: the idea, the Redis or SQL primitive, the shape of the code. */
  hints: z.array(z.string()).min(2).max(3),
  sets: z.array(ExerciseSet).min(1),
});
export type ExerciseInfo = z.infer<typeof ExerciseInfo>;

export const ExercisesStatus = z.object({
  /** True when this server runs edited code (bound to loopback, or started with --allow-exercises). */
  allowed: z.boolean(),
  /** Why, in one sentence the page shows as it is. */
  why: z.string(),
  exercises: z.array(ExerciseInfo),
});
export type ExercisesStatus = z.infer<typeof ExercisesStatus>;

export const ExerciseSolution = z.object({ variant: z.string(), title: z.string(), code: z.string() });
export type ExerciseSolution = z.infer<typeof ExerciseSolution>;

/** A known near-miss the edited code behaves as: one of the scenario's mutants. */
export const NearMiss = z.object({ id: z.string(), title: z.string(), mistake: z.string() });
export type NearMiss = z.infer<typeof NearMiss>;

/** One set's grade: passed, or failed in the verdict's own words, with the set's reason. */
export const ExerciseSetResult = z.object({
  index: z.number().int().nonnegative(),
  set: ExerciseSet,
  passed: z.boolean(),
  /** The verdict's words: "E-mails sent: 3 — should be 1" for each failed expectation; empty when passed. */
  failures: z.array(z.string()),
  /** "fails at arrival late, lease 2 s, work 3 s: worker-1's release deleted worker-2's lock" when failed. */
  summary: z.string(),
  nearMiss: NearMiss.optional(),
  /** The run behind this grade (its recording and timeline, while the server keeps it). */
  runId: z.string().optional(),
});
export type ExerciseSetResult = z.infer<typeof ExerciseSetResult>;

/** A compile or load failure: the compiler's (or loader's) message, with its line when it has one. */
export const ExerciseCompileError = z.object({ message: z.string(), line: z.number().int().positive().optional() });
export type ExerciseCompileError = z.infer<typeof ExerciseCompileError>;

/** A line of the check's answer, in order: compiled (or not), each set as it is graded, then done. */
export const ExerciseProgress = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('compiled'), sets: z.number().int().positive() }),
  z.object({ kind: z.literal('not-compiled'), errors: z.array(ExerciseCompileError).min(1) }),
  z.object({ kind: z.literal('set'), result: ExerciseSetResult }),
  z.object({ kind: z.literal('done'), passed: z.boolean(), results: z.array(ExerciseSetResult) }),
  /** Refused (not allowed, busy, too large) or failed for a reason that is not the code's: in words. */
  z.object({ kind: z.literal('refused'), error: z.string() }),
]);
export type ExerciseProgress = z.infer<typeof ExerciseProgress>;

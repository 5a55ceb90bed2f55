// Text from outside (a socket frame, a file) read as JSON, then by its schema, with the
// reason in words when either step fails. The wire's and the recordings' parsers use it.
import type { z } from 'zod';

/** What the caller says when the text is not JSON, and when the JSON is not what the schema wants. */
export interface ParseWords {
  notJson: (error: unknown) => string;
  /** The words before the issue, e.g. "invalid message"; the issue follows as " at 'path': message". */
  invalid: (json: unknown) => string;
}

/** Parses `text` as JSON (through `reviver`, if given) and then by `schema`. */
export function parseJsonBy<T>(
  schema: z.ZodType<T>,
  text: string,
  words: ParseWords,
  reviver?: (key: string, value: unknown) => unknown,
): { ok: true; value: T } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text, reviver);
  } catch (error) {
    return { ok: false, error: words.notJson(error) };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: `${words.invalid(json)}${describeIssue(result.error)}` };
}

/** The first problem zod found, as " at 'path': message", for error replies. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at '${issue.path.join('.')}'` : '';
  return `${where}: ${issue?.message ?? 'unknown problem'}`;
}

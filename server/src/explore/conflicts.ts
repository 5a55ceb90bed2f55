// Which steps of two workers do not commute: swapping them could change what the stores hold
// or what either worker reads. Steps on different stores, on different keys or tables, or
// that both only read, commute; so do pauses and checkpoints, which touch no store. A call of
// a lock's adapter takes, gives back or extends its key: it conflicts with any other step on
// that key, a lock's call or a Redis command. Where a
// step's reach cannot be told (a command without keys, a statement whose tables do not show),
// it conflicts with every step of its store: the search may run an equivalent schedule, but
// never skips a different one.
import type { StepAt } from '@racelab/shared';

const REDIS_READS = new Set([
  'GET',
  'MGET',
  'EXISTS',
  'PTTL',
  'TTL',
  'HGET',
  'HGETALL',
  'HMGET',
  'LRANGE',
  'LLEN',
  'SMEMBERS',
  'ZRANGE',
  'STRLEN',
  'TYPE',
]);

/** Tables a statement names after FROM, UPDATE, INTO or JOIN; empty when none shows. */
function tablesOf(sql: string): string[] {
  return [...sql.matchAll(/\b(?:from|update|into|join)\s+([a-z_][a-z0-9_.]*)/gi)].map((m) => m[1]!.toLowerCase());
}

/** A statement that only reads rows: a SELECT from a table that locks nothing and calls nothing with effects. */
function readsOnly(sql: string): boolean {
  return (
    /^\s*select\b/i.test(sql) &&
    tablesOf(sql).length > 0 &&
    !/\bfor\s+(update|share|no key update|key share)\b|pg_advisory|nextval|setval/i.test(sql)
  );
}

/**
 * A transaction's own bounds: BEGIN, COMMIT, ROLLBACK, a savepoint. They name no table and
 * commute with every step of another worker: what decides an outcome is where the
 * transaction's statements fall against the other's (a read of READ COMMITTED sees a row as
 * it was before an uncommitted update, the same as before the update itself; a write of the
 * same row waits for the commit whichever goes first), and those statements race in their own
 * right. Counted as conflicting, a COMMIT would stand between every later statement and the
 * statement it really races with, and the search would never let the later one go first.
 */
function bounds(sql: string): boolean {
  return (
    /^\s*(begin|commit|rollback|end|start\s+transaction|savepoint|release\s+savepoint)\b/i.test(sql) && !/\bto\s+savepoint\b/i.test(sql)
  );
}

const overlaps = (a: string[], b: string[]): boolean => a.length === 0 || b.length === 0 || a.some((x) => b.includes(x));

const onKeys = (step: StepAt): boolean => step.kind === 'redis' || step.kind === 'lock';

/** True when swapping the two steps could change an outcome. */
export function conflicts(a: StepAt, b: StepAt): boolean {
  if (a.kind === 'lock' || b.kind === 'lock') return onKeys(a) && onKeys(b) && overlaps(keysOf(a), keysOf(b));
  if (a.kind === 'redis' && b.kind === 'redis') {
    if (REDIS_READS.has(a.command) && REDIS_READS.has(b.command)) return false;
    return overlaps(a.keys, b.keys);
  }
  if (a.kind === 'postgres' && b.kind === 'postgres') {
    if (bounds(a.sql) || bounds(b.sql)) return false;
    if (readsOnly(a.sql) && readsOnly(b.sql)) return false;
    return overlaps(tablesOf(a.sql), tablesOf(b.sql));
  }
  return false;
}

/** A step's identity, to tell two steps the same: the same command on the same keys, the same statement, the same call. */
export const stepKey = (step: StepAt): string => JSON.stringify(step);

/** The keys a step names (a Redis command's, a lock call's); none for any other step. */
export function keysOf(step: StepAt): string[] {
  return step.kind === 'redis' ? step.keys : step.kind === 'lock' ? [step.key] : [];
}

/** True when the step may change a store: a Redis command or SQL statement that does not only read. */
export function writes(step: StepAt): boolean {
  if (step.kind === 'redis') return !REDIS_READS.has(step.command);
  return step.kind === 'postgres' && !readsOnly(step.sql);
}

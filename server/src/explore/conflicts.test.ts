// Which steps the search reorders: a lock's call against the Redis commands and the other
// calls on its key.
import { describe, expect, it } from 'vitest';
import type { StepAt } from '@racelab/shared';
import { conflicts, keysOf } from './conflicts.js';

const acquire: StepAt = { kind: 'lock', call: 'acquire', key: 'lock:x' };
const release: StepAt = { kind: 'lock', call: 'release', key: 'lock:x' };

describe('steps that do not commute', () => {
  it("puts a lock's calls on its key against each other and against any Redis command on it", () => {
    expect(conflicts(acquire, release)).toBe(true);
    expect(conflicts(release, { kind: 'redis', command: 'GET', keys: ['lock:x'] })).toBe(true);
    expect(conflicts({ kind: 'redis', command: 'DEL', keys: ['lock:x'] }, acquire)).toBe(true);
    // A command whose keys do not show may touch any.
    expect(conflicts(acquire, { kind: 'redis', command: 'EVAL', keys: [] })).toBe(true);
  });

  it('lets a lock call commute with other keys, statements, checkpoints and pauses', () => {
    expect(conflicts(acquire, { kind: 'lock', call: 'acquire', key: 'lock:y' })).toBe(false);
    expect(conflicts(acquire, { kind: 'redis', command: 'SET', keys: ['lock:y'] })).toBe(false);
    expect(conflicts(acquire, { kind: 'postgres', sql: 'insert into emails (worker) values ($1)' })).toBe(false);
    expect(conflicts(acquire, { kind: 'checkpoint', name: 'working' })).toBe(false);
    expect(conflicts({ kind: 'yield', why: 'sleep' }, release)).toBe(false);
  });

  it("lets a transaction's bounds commute, so a statement races the statement it meets, not the other's COMMIT", () => {
    const update: StepAt = { kind: 'postgres', sql: 'update documents set content = $1 where id = $2' };
    for (const sql of ['begin', 'COMMIT', 'rollback', 'savepoint a', 'release savepoint a'])
      expect(conflicts({ kind: 'postgres', sql }, update)).toBe(false);
    expect(conflicts(update, { kind: 'postgres', sql: 'update documents set fence = $1 where id = $2' })).toBe(true);
    // Undoing to a savepoint takes back the transaction's writes: it stays a step of unknown reach.
    expect(conflicts({ kind: 'postgres', sql: 'rollback to savepoint a' }, update)).toBe(true);
  });

  it("names a lock call's key, so a lease may run out just before it", () => {
    expect(keysOf(release)).toEqual(['lock:x']);
  });
});

import { describe, expect, it } from 'vitest';
import { checkFailed, checkHeadline, checkSent, foldProgress, IDLE, solved, type CheckState } from './checkResult.js';
import { FIX_LINES, HALF_FIX_LINES, NEAR_MISS, NOT_COMPILED_LINE, REFUSED_LINE, SETS } from './fixtures/duplicateJobCheck.js';
import { readProgressLine } from './ndjson.js';

/** The recorded lines through the page's own reader, then folded one by one: every picture on the way. */
function pictures(lines: string[]): CheckState[] {
  const out: CheckState[] = [checkSent(SETS)];
  for (const line of lines) {
    const read = readProgressLine(line);
    if (!read?.ok) throw new Error(`fixture line does not read: ${line}`);
    out.push(foldProgress(out[out.length - 1] ?? IDLE, read.progress));
  }
  return out;
}

const states = (s: CheckState) => s.rows.map((r) => r.state).join(' ');

describe('a check as it streams', () => {
  it('shows every declared set pending, then the one being graded as running, then each graded', () => {
    const seen = pictures(HALF_FIX_LINES);
    expect(seen.map(states)).toEqual([
      'pending pending pending pending',
      'running pending pending pending',
      'passed running pending pending',
      'passed passed running pending',
      'passed passed passed running',
      'passed passed passed failed',
      'passed passed passed failed',
    ]);
    expect(seen.map((s) => s.phase)).toEqual(['sending', 'checking', 'checking', 'checking', 'checking', 'checking', 'done']);
    expect(seen.map(checkHeadline).slice(-2)).toEqual(['Checking: 3 of 4 sets pass so far', 'Not yet: 3 of 4 sets pass']);
  });

  it('keeps the failed set’s verdict words, its reason, and the near-miss it behaves as', () => {
    const done = pictures(HALF_FIX_LINES).at(-1);
    const failed = done?.rows[3];
    expect(failed?.state).toBe('failed');
    expect(failed?.result?.failures).toEqual(['Max concurrent holders: 2 — should be 1']);
    expect(failed?.set?.reason).toBe(SETS[3]?.reason);
    expect(failed?.result?.nearMiss).toEqual(NEAR_MISS);
    expect(done && solved(done)).toBe(false);
  });

  it('counts a fix only when the check is done and every set passed', () => {
    const seen = pictures(FIX_LINES);
    expect(seen.slice(0, -1).some(solved)).toBe(false); // every set passed, but not done yet
    const done = seen.at(-1);
    expect(done && solved(done)).toBe(true);
    expect(done && checkHeadline(done)).toBe('Solved: every set passes');
    // A "done, passed" that contradicts its own sets is not a fix.
    const lying = foldProgress(checkSent(SETS), { kind: 'done', passed: true, results: [] });
    expect(solved(lying)).toBe(false);
  });

  it('takes the server’s count of sets over the declared list', () => {
    const more = foldProgress(checkSent(SETS.slice(0, 2)), { kind: 'compiled', sets: 3 });
    expect(more.rows.map((r) => r.set?.label ?? null)).toEqual([SETS[0]?.label, SETS[1]?.label, null]);
  });

  it('shows compile errors with their line, and a refusal as it is', () => {
    const [, notCompiled] = pictures([NOT_COMPILED_LINE]);
    expect(notCompiled?.phase).toBe('not-compiled');
    expect(notCompiled?.errors).toEqual([{ message: "Cannot find name 'tokn'.", line: 27 }]);
    expect(notCompiled?.rows).toEqual([]);
    const twice = {
      kind: 'not-compiled' as const,
      errors: [
        { message: 'Variable declaration expected.', line: 19 },
        { message: 'Variable declaration expected.', line: 19 },
        { message: "';' expected.", line: 19 },
      ],
    };
    expect(foldProgress(checkSent(SETS), twice).errors).toEqual([
      { message: 'Variable declaration expected.', line: 19 },
      { message: "';' expected.", line: 19 },
    ]);
    const [, refused] = pictures([REFUSED_LINE]);
    expect(refused?.phase).toBe('refused');
    expect(refused?.problem).toBe('this server runs edited code only when bound to loopback');
    expect(refused && checkHeadline(refused)).toBe('The server refused the check');
  });

  it('says so when the answer breaks off', () => {
    const cut = checkFailed(pictures(HALF_FIX_LINES.slice(0, 2)).at(-1) ?? IDLE, 'the connection to the server dropped');
    expect(cut.phase).toBe('failed');
    expect(states(cut)).toBe('passed running pending pending');
    expect(checkHeadline(cut)).toBe('The check did not finish');
  });
});

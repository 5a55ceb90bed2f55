// `racelab exercise` as a person runs it, from the built CLI against the real stores: exit 0
// when every set graded passes (JSON with --json), 1 when one fails (its failures printed as
// they are graded), 2 when the file does not compile (the compiler's message with its line,
// before any store is reached) or the command line is wrong.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BLIND_DEL, TOKEN_LUA } from '../testing/exerciseCode.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'racelab-exercise-cli-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

function exercise(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, 'exercise', ...args],
      { cwd: dir, env: { ...process.env, INIT_CWD: dir } },
      (error, stdout, stderr) => {
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr });
      },
    );
  });
}

describe('racelab exercise', () => {
  it('exits 2 with the compiler’s message and line when the file does not compile', async () => {
    const broken = file('broken.ts', `${BLIND_DEL}\nconst x = ;\n`);
    const line = BLIND_DEL.split('\n').length + 1;
    const { code, stderr } = await exercise('duplicate-job', '--file', broken);
    expect(code).toBe(2);
    expect(stderr).toContain(`broken.ts:${line}: Expression expected.`);
    const json = await exercise('duplicate-job', '--file', broken, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ compiled: false, errors: [{ line, message: 'Expression expected.' }] });
  });

  it('exits 2 on a wrong command line: no exercise, no file, a set out of range', async () => {
    expect(await exercise('no-such-scenario', '--file', 'x.ts')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('has no exercise') as unknown,
    });
    expect(await exercise('duplicate-job')).toMatchObject({ code: 2, stderr: expect.stringContaining('--file is required') as unknown });
    const fix = file('fix.ts', TOKEN_LUA);
    expect(await exercise('duplicate-job', '--file', fix, '--set', '9')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--set must be a set's number, 1 to 4") as unknown,
    });
  });

  it('exits 0 when every set graded passes, and prints JSON with --json', async () => {
    const fix = file('fix.ts', TOKEN_LUA);
    const { code, stdout } = await exercise('duplicate-job', '--file', fix, '--set', '1', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      scenario: 'duplicate-job',
      compiled: true,
      passed: true,
      results: [{ index: 0, passed: true }],
    });
  }, 120_000);

  it('exits 1 when a set fails, printing its failures as it is graded', async () => {
    const start = file('start.ts', BLIND_DEL);
    const { code, stdout } = await exercise('duplicate-job', '--file', start, '--set', '3');
    expect(code).toBe(1);
    expect(stdout).toContain('✗ 3. fails at workers 3, work 3 s, lease 2 s, arrival late, failure first fails');
    expect(stdout).toContain('E-mails sent: 2 — should be 1');
    expect(stdout).toContain('1 of 1 sets fail');
  }, 180_000);
});

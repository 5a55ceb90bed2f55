// `racelab explore --all` from the built command line: a scenario that cannot be explored is
// listed, variant by variant and near-miss by near-miss, with its reason and nothing played, and
// that is no failure (exit 0); bad input is exit 2 with the reason. The explorations themselves
// are each scenario's *.explore.test.ts (npm run test:full).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

const runCli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });

describe('racelab explore --all', () => {
  it('lists a scenario the scheduler cannot order as not explorable, with its reason, and exits 0', async () => {
    const { code, stdout } = await runCli(['explore', '--all', '--scenario', 'stalled-job']);
    const rows = stdout.split('\n').filter((line) => line.startsWith('| stalled-job |'));
    expect(rows.map((line) => line.split(' | ')[1])).toEqual([
      'plain-insert',
      'unique-job-id',
      'fenced-attempt',
      'key-per-attempt',
      'check-then-insert',
    ]);
    for (const row of rows) expect(row).toMatch(/\| — \| — \| not explorable: the job runs inside bullmq.* \| — \|$/);
    expect(stdout).toContain('| Scenario | Variant | Kind | Schedules | Time | Result | As expected |');
    expect(code).toBe(0);
  });

  it('refuses a scenario it does not know and a budget out of bounds (exit 2)', async () => {
    const unknown = await runCli(['explore', '--all', '--scenario', 'no-such-scenario']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no-such-scenario');
    const budget = await runCli(['explore', '--all', '--budget', '0']);
    expect(budget.code).toBe(2);
    expect(budget.stderr).toContain('--budget must be an integer from 1 to 10000');
  });
});

// `racelab explore --exercise` on a learner's code, the built CLI against the real stores, the
// code run on fresh confined workers as the exercise runs it (each search runs several real
// runs: npm run test:full). lost-update's exercise: its broken start, read-modify-write sent as
// the learner's code, loses a sale under the first schedule the explorer plays, and the
// schedule plays again to the same stock; the solution's atomic update loses none within the
// bound. A file that does not compile is told with exit 2.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'racelab-explore-exercise-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** lost-update's variant file `name`, written as a learner's file. */
function learnerFile(
  name: string,
  text = readFileSync(fileURLToPath(new URL(`../scenarios/lost-update/variants/${name}.ts`, import.meta.url)), 'utf8'),
): string {
  writeFileSync(join(dir, `${name}.ts`), text);
  return `${name}.ts`;
}

/** What `racelab explore --exercise … --json` prints, as far as these tests read it. */
interface ExerciseReport {
  scenario: string;
  exercise: string;
  variant: string;
  schedules: number;
  failing: number;
  errors: number;
  replay?: string;
  figures?: Record<string, unknown>;
  smallest?: { cost: { preemptions: number; faults: number }; verdict: string[] };
  outcome?: string;
}

/** `racelab explore --exercise lost-update <args>` from the learner's folder. */
function explore(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, 'explore', '--exercise', 'lost-update', ...args, '--json'],
      { cwd: dir, env: { ...process.env, INIT_CWD: dir } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('racelab explore --exercise', () => {
  it("finds the broken start's lost sale, writes the schedule and plays it again to the same stock", async () => {
    const file = learnerFile('readModifyWrite');
    const found = await explore(['--file', file, '--first', '--budget', '4', '--out', 'start.schedule.json']);
    expect(found.code, found.stderr).toBe(1);
    const report = JSON.parse(found.stdout) as ExerciseReport;
    expect(report).toMatchObject({ scenario: 'lost-update', exercise: 'read-modify-write', variant: 'your-fix' });
    expect(report.smallest!.cost).toEqual({ preemptions: 0, faults: 0 });
    expect(report.smallest!.verdict[0]).toMatch(/^Final stock: \d+ — should be \d+$/);
    expect(existsSync(join(dir, 'start.schedule.json'))).toBe(true);
    expect(report.replay).toBe(
      `npm run explore -- --exercise lost-update --file ${join(dir, file)} --schedule ${join(dir, 'start.schedule.json')}`,
    );

    const again = await explore(['--file', file, '--schedule', 'start.schedule.json']);
    expect(again.code, again.stderr).toBe(1);
    const replayed = JSON.parse(again.stdout) as ExerciseReport;
    expect(replayed.outcome).toBe('fail');
    expect(replayed.figures!.finalStock).toBe(report.figures!.finalStock);
  }, 600_000);

  it("finds no failing schedule of the solution's atomic update among those it runs", async () => {
    const found = await explore(['--file', learnerFile('atomicUpdate'), '--bound', '1', '--budget', '6']);
    expect(found.code, found.stderr).toBe(0);
    const report = JSON.parse(found.stdout) as ExerciseReport;
    expect(report).toMatchObject({ failing: 0, errors: 0 });
    expect(report.schedules).toBeGreaterThanOrEqual(2);
  }, 600_000);

  it('tells a file that does not compile with exit 2, before any schedule', async () => {
    const found = await explore(['--file', learnerFile('broken', 'export default = ;\n')]);
    expect(found.code).toBe(2);
    expect(found.stderr).toContain('broken.ts');
  });
});

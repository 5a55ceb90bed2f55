// `racelab explore --lock` on the two example locks, the built CLI in processes of its own
// against the real stores (each exploration runs dozens of real runs: npm run test:full). The
// naive SET NX + DEL lock fails: once a lease runs out where the schedule says, its holder's DEL
// removes the next holder's lock, as the key's history shows; the smallest failing schedule is
// written and plays again with the lock named. The fenced lock fails no schedule within its bound.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScheduleFile } from '@racelab/shared';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'racelab-explore-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `racelab explore --lock … --json` prints, as far as these tests read it. */
interface LockReport {
  scenario: string;
  variant: string;
  name: string;
  schedules: number;
  failing: number;
  errors: number;
  exhausted: boolean;
  replay?: string;
  figures?: Record<string, unknown>;
  smallest?: { cost: { preemptions: number; faults: number }; choices: unknown[]; story: string[]; verdict: string[]; recording: string };
}

/** `racelab <args>` from the clone's root: its exit status and what it printed. */
function racelab(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, INIT_CWD: root } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('racelab explore --lock', () => {
  it("finds the naive lock's release removing the next holder's lock, writes the schedule, and plays it again", async () => {
    const out = join(dir, 'naive.schedule.json');
    const lock = 'examples/locks/naive-setnx.mjs';
    const found = await racelab(['explore', '--lock', lock, '--param', 'workers=2', '--first', '--budget', '30', '--out', out, '--json']);
    expect(found.code, found.stderr).toBe(1);
    const report = JSON.parse(found.stdout) as LockReport;
    expect(report).toMatchObject({ scenario: 'duplicate-job', variant: 'your-lock', name: 'naive SET NX + DEL' });
    const smallest = report.smallest!;
    expect(smallest.verdict[0]).toMatch(/^Locks held by another removed by a release: 1 — should be 0 \(the key's history: /);
    expect(smallest.verdict[0]).toContain("whose grant: the schedule's trace; whose release: the workers' reports of their releases");
    // The lease ran out where the schedule said, and the lock's release was a step of its own.
    expect(smallest.cost.faults).toBe(1);
    expect(smallest.story).toContain("the lease 'lock:nightly-report' runs out (Redis's clock)");
    // Redis told that lease's end as an expiry, and the next holder's as a DEL.
    expect(smallest.verdict).toContainEqual(expect.stringContaining("The lock key's holds: worker-1's expired, worker-2's deleted"));
    expect(smallest.story.filter((line) => line.endsWith(': lock.release(lock:nightly-report)'))).not.toHaveLength(0);
    const written = parseScheduleFile(readFileSync(out, 'utf8'));
    if (!written.ok) throw new Error(written.error);
    expect(written.schedule.choices).toEqual(smallest.choices);
    expect(existsSync(smallest.recording)).toBe(true);
    expect(report.replay).toBe(`npm run scenario -- duplicate-job --variant your-lock --lock ${join(root, lock)} --schedule ${out}`);

    const replay = await racelab(['duplicate-job', '--variant', 'your-lock', '--lock', lock, '--schedule', out, '--json']);
    expect(replay.code, replay.stderr).toBe(0);
    const replayed = JSON.parse(replay.stdout) as { metrics: unknown; lockVerdict?: { outcome: string; lines: string[] } };
    expect(replayed.metrics).toEqual(report.figures);
    // Beside the scenario's verdict, the lock's as the explorer judged it: the same removal again.
    expect(replayed.lockVerdict?.outcome).toBe('fail');
    expect(replayed.lockVerdict?.lines[0]).toMatch(/^Locks held by another removed by a release: 1 — should be 0/);
  }, 600_000);

  it('finds no failing schedule of the fenced lock, every one within bound 1 played', async () => {
    const out = join(dir, 'fenced.schedule.json');
    const args = ['explore', '--lock', 'examples/locks/fenced.mjs', '--param', 'workers=2', '--bound', '1', '--budget', '400'];
    const found = await racelab([...args, '--out', out, '--json']);
    expect(found.code, found.stderr).toBe(0);
    const report = JSON.parse(found.stdout) as LockReport;
    expect(report).toMatchObject({ failing: 0, errors: 0, exhausted: true });
    expect(report.schedules).toBeGreaterThan(1);
    expect(existsSync(out)).toBe(false);
  }, 900_000);

  it('refuses a scenario named beside --lock, and a module that is not there, with exit 2', async () => {
    expect((await racelab(['explore', 'fencing', '--lock', 'examples/locks/fenced.mjs'])).code).toBe(2);
    expect((await racelab(['explore', '--lock', 'examples/locks/none.mjs'])).code).toBe(2);
  });
});

// The CLI's --faults: a plan from a file strikes the run as a page's would. duplicate-job's
// blind-del sends an e-mail per container; with worker-2 killed (SIGKILL) where it works,
// before it sends, the e-mails table holds one fewer, the kill is listed with its mechanism,
// and the plan is in the JSON beside the verdict. A plan that cannot be read, or names a
// checkpoint the variant does not have, is exit 2 with the reason.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const runCli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });

let dir: string;
const planFile = async (name: string, text: string): Promise<string> => {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
};
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'racelab-plans-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface CliResult {
  metrics: Record<string, number>;
  verdict: string;
  asExpected: boolean;
  faultPlan?: unknown[];
  faults: { fault: string; workerId: string; mechanism: string }[];
}

describe.concurrent('the CLI with a fault plan', () => {
  it('kills worker-2 where it works: one e-mail fewer than the same run without the plan', async () => {
    const plan = [{ checkpoint: 'working', target: 'worker-2', action: 'kill' }];
    const file = await planFile('kill.json', JSON.stringify(plan));
    const [planned, unplanned] = await Promise.all([
      runCli(['duplicate-job', '--variant', 'blind-del', '--faults', file, '--json']),
      runCli(['duplicate-job', '--variant', 'blind-del', '--json']),
    ]);
    expect(planned.code).toBe(0);
    expect(unplanned.code).toBe(0);
    const withPlan = JSON.parse(planned.stdout) as CliResult;
    const without = JSON.parse(unplanned.stdout) as CliResult;
    expect(withPlan.metrics.emailsSent).toBe(without.metrics.emailsSent! - 1);
    expect(withPlan.faultPlan).toEqual(plan);
    expect(without.faultPlan).toBeUndefined();
    expect(withPlan.faults).toEqual([expect.objectContaining({ fault: 'kill', workerId: 'worker-2', mechanism: 'SIGKILL' })]);
    expect(without.faults).toEqual([]);
    // blind-del fails either way: the parameters alone give its FAIL.
    expect(withPlan).toMatchObject({ verdict: 'fail', asExpected: true });
  }, 120_000);

  it.each([
    ['a missing file', null, /^could not read the fault plan .*missing\.json: ENOENT/m],
    ['a file that is not JSON', '[{', /^the fault plan .*not-json\.json is not JSON/m],
    [
      'a stall with no length',
      '[{"checkpoint":"working","target":"first","action":"stall"}]',
      /a stall at 'working' needs its length in ms/,
    ],
    [
      'a rule the protocol does not know',
      '[{"checkpoint":"working","target":"first","action":"kill","sql":"drop"}]',
      /is not a list of fault rules/,
    ],
    [
      'a checkpoint the variant does not have',
      '[{"checkpoint":"nowhere","target":"first","action":"kill"}]',
      /^unknown checkpoint 'nowhere' of blind-del; known: working, report-sent$/m,
    ],
  ])('%s is exit 2 with the reason', async (what, text, reason) => {
    const name =
      what === 'a missing file'
        ? 'missing.json'
        : what === 'a file that is not JSON'
          ? 'not-json.json'
          : `${what.replaceAll(' ', '-')}.json`;
    const file = text === null ? path.join(dir, name) : await planFile(name, text);
    const { code, stderr } = await runCli(['duplicate-job', '--variant', 'blind-del', '--faults', file]);
    expect(stderr).toMatch(reason);
    expect(code).toBe(2);
  });
});

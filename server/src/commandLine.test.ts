// The CLI's command line: --help is the usage (exit 0); a mistyped option, a missing value, a
// second scenario or a --param without '=' is exit 2 with the reason and the usage, before
// any service is touched; --param refuses a name that would vanish into an object's
// prototype. (The tools' command lines: tools/src/commandLine.test.ts.)
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCliArgs, UsageError } from './cliArgs.js';
import { splitParam } from './commandLine.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const runCli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    // Services that cannot be reached: a CLI that went past its checks would fail (exit 1).
    const env = { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    execFile(process.execPath, [cli, ...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });

describe.concurrent('the CLI', () => {
  it.each([['--help'], ['-h']])('%s prints the usage and exits 0', async (flag) => {
    const { code, stdout } = await runCli([flag]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run scenario/);
  });

  it.each([
    [['--bogus'], /^Unknown option '--bogus'/],
    [['fencing', '--variant'], /^Option '--variant <value>' argument missing$/m],
    [['fencing', '--variant', '--json'], /^Option '--variant' argument is ambiguous/],
    [['fencing', '--json=yes', '--variant', 'fenced'], /^Option '--json' does not take an argument$/m],
    [['fencing', 'lost-update', '--variant', 'fenced'], /^unexpected argument 'lost-update': one scenario per run$/m],
    [['fencing', '--variant', 'fenced', '--param', 'pauseMs'], /^--param takes name=value, got 'pauseMs'$/m],
    [['fencing', '--variant', 'fenced', '--param=__proto__=1'], /^--param: key '__proto__' is not allowed/m],
  ])('%j is refused with exit 2, the reason and the usage', async (args, reason) => {
    const { code, stderr } = await runCli(args);
    expect(stderr).toMatch(reason);
    expect(stderr).toMatch(/\nusage: npm run scenario -- <scenario>/);
    expect(code).toBe(2);
  });
});

describe('readCliArgs', () => {
  it('takes the scenario, the variant, every --param in both spellings and the switches', () => {
    const args = readCliArgs(['fencing', '--variant=fenced', '--param', 'pauseMs=2500', '--param=workMs=300', '--json']);
    expect(args).toEqual({
      scenario: 'fencing',
      variant: 'fenced',
      params: { pauseMs: '2500', workMs: '300' },
      json: true,
      list: false,
      help: false,
    });
    expect(readCliArgs(['--list'])).toEqual({ params: {}, json: false, list: true, help: false });
  });

  it('takes a fault plan as the file it names (read by the CLI: cliFaults.test.ts)', () => {
    expect(readCliArgs(['duplicate-job', '--variant', 'blind-del', '--faults', 'plan.json']).faults).toBe('plan.json');
    expect(readCliArgs(['duplicate-job', '--variant', 'blind-del']).faults).toBeUndefined();
  });

  it('keeps a value that starts with a dash inside --param', () => {
    expect(readCliArgs(['x', '--param', 'offsetMs=-5']).params).toEqual({ offsetMs: '-5' });
  });

  it('throws a UsageError on what it cannot read', () => {
    expect(() => readCliArgs(['--variant'])).toThrow(UsageError);
    expect(() => readCliArgs(['a', 'b'])).toThrow(UsageError);
    expect(() => readCliArgs(['--param', 'novalue'])).toThrow(UsageError);
  });
});

describe('--param names that name a prototype', () => {
  it('refuses __proto__ with a message instead of losing it', () => {
    expect(() => splitParam('__proto__=1')).toThrow(
      "--param: key '__proto__' is not allowed: it names an object's prototype, not a parameter",
    );
  });
});

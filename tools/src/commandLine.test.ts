// The tools' command lines (npm run stability, npm run fuzz): --help is the usage (exit 0); a
// mistyped option, a bad number or a name that matches nothing is exit 2 with the reason,
// before any service is touched — a stability pass over no variant would otherwise report
// "0/0 stable".
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = (name: string): string => fileURLToPath(new URL(`../dist/${name}.js`, import.meta.url));

const run = (name: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    // Services that cannot be reached: a script that got past its checks would fail (exit 1).
    const env = { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    execFile(process.execPath, [script(name), ...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });

describe.concurrent('command lines', () => {
  it.each(['stability', 'fuzz'])('%s --help prints the usage and exits 0', async (name) => {
    const { code, stdout } = await run(name, ['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run /);
  });

  it.each([
    ['stability', ['--bogus'], /Unknown option '--bogus'[^]*\nusage: npm run stability/],
    ['fuzz', ['--frames'], /'--frames <value>' argument missing\nusage: npm run fuzz/],
    ['stability', ['--times', '0'], /^--times must be an integer from 1 to 10000, got 0$/m],
    ['stability', ['--parallel', 'many'], /^--parallel must be an integer from 1 to 12, got many$/m],
    ['fuzz', ['--seed=-3'], /^--seed must be an integer from 0 to 2147483647, got -3$/m],
    ['fuzz', ['--connections', '1e9'], /^--connections must be an integer from 1 to 500, got 1e9$/m],
    ['stability', ['--param', 'workers'], /^--param takes name=value, got 'workers'$/m],
    ['stability', ['--scenario', 'nope'], /^unknown scenario 'nope'; known: duplicate-job, token-stampede, /m],
    ['stability', ['--except', 'dupliate-job'], /^unknown scenario 'dupliate-job'/m],
    [
      'stability',
      ['--scenario', 'fencing', '--variant', 'no-lock'],
      /^unknown variant 'no-lock' of fencing; known: lease-only, fenced(, lib-[a-z-]+)+$/m,
    ],
    ['stability', ['--defaults-only', '--declared-only'], /leave nothing to run together/],
  ])('%s %j is refused with exit 2', async (name, args, message) => {
    const { code, stderr } = await run(name, args);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });
});

// The CLI's command line: --help is the usage (exit 0), and --param refuses a name that would
// vanish into an object's prototype. (The tools' command lines: tools/src/commandLine.test.ts.)
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { splitParam } from './commandLine.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('the CLI', () => {
  it('--help prints the usage and exits 0', async () => {
    // Services that cannot be reached: a CLI that went past --help would fail (exit 1).
    const env = { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [cli, '--help'], { env, timeout: 30_000 }, (error, out) => (error ? reject(error) : resolve(out))),
    );
    expect(stdout).toMatch(/^usage: npm run scenario/);
  });
});

describe('--param names that name a prototype', () => {
  it('refuses __proto__ with a message instead of losing it', () => {
    expect(() => splitParam('__proto__=1')).toThrow("--param: key '__proto__' is not allowed: it names an object's prototype, not a parameter");
  });
});

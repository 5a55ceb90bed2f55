// The built CLI run as a process of its own, as a person runs it from a shell.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Runs `racelab <args>` to its end: its exit status and what it wrote to stderr. */
export function runCli(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }));
  });
}

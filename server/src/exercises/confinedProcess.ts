// Spawning a confined command line (it drops to its own uid itself): its uid given back once it has exited, and
// what it left (exit code or signal, stdout, stderr) gathered for endedWords. A deadline,
// where given, is a SIGKILL: wall time is the one limit the kernel does not keep.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { ConfinedCommandLine } from './confinement.js';

/** What a confined process left. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Killed at its deadline. */
  timedOut: boolean;
  ms: number;
}

/** Spawns it; `ended` resolves once it has exited and its output is read. */
export function spawnConfined(
  command: ConfinedCommandLine,
  options: { deadlineMs?: number; stdio?: StdioOptions } = {},
): { child: ChildProcess; ended: Promise<Ended> } {
  const started = performance.now();
  const child = spawn(command.command, command.args, {
    cwd: command.cwd,
    env: command.env,
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timedOut = false;
  const deadline =
    options.deadlineMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.deadlineMs);
  const ended = new Promise<Ended>((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(deadline);
      command.release();
      reject(error);
    });
    // 'close', not 'exit': all it printed has been read; it has been reaped, so its uid is free.
    child.once('close', (code, signal) => {
      clearTimeout(deadline);
      command.release();
      resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - started });
    });
  });
  return { child, ended };
}

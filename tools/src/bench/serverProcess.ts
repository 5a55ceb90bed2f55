// The real server as `npm start` leaves it running (node server/dist/main.js), started by
// a benchmark on a free port, with its peak memory read from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort, serverMain } from '@racelab/server';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGINT, as Ctrl-C; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts the server and resolves once it prints its address. */
export async function startServer(env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverMain], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const timer = setInterval(() => {
      const found = /playground on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) resolve(found);
      else if (child.exitCode !== null || Date.now() > deadline) reject(new Error(`server did not start: ${output.slice(-500)}`));
      else return;
      clearInterval(timer);
    }, 10);
  });
  return {
    child,
    url,
    output: () => output,
    stop() {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      return exited.finally(() => clearTimeout(timer));
    },
  };
}

/** A /proc/<pid>/status field in bytes (VmRSS, VmHWM = peak RSS), or NaN once the process is gone. */
export function procBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Number(kb) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** Direct children of a process (its worker processes, for the server). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

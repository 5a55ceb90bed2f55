import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** True while a process with this pid runs (signal 0 probes without signalling); zombies count as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A dead process whose parent has not reaped it yet still answers signal 0 (some container
  // inits reap late). Linux only; elsewhere we can't tell and say alive.
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // Format: "pid (comm) S ..."; comm may contain spaces or parens, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/** Sends `signal` to `pid`, ignoring "no such process"; returns whether it was delivered. */
export function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone or `timeoutMs` passed; resolves to whether it is gone. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/** The process's command line from /proc, or null where /proc is unavailable (non-Linux) or it is gone. */
export function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

/**
 * When the process started, in clock ticks since boot (/proc/<pid>/stat, field 22): with the
 * pid, it names one process, so a pid reused by a stranger is never taken for ours. null where
 * /proc is unavailable or the process is gone.
 */
export function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, so starttime (22) is the 20th after the ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True while this very process runs: same pid and, where /proc tells, the same start. */
export function isSameProcess(pid: number, ticks: string | null): boolean {
  if (!isAlive(pid)) return false;
  const now = startTicks(pid);
  return ticks === null || now === null || now === ticks;
}

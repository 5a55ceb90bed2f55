// Processes this server started — its worker processes, a lab's redis-servers and
// sentinels — listed in a small state file of its own, so that whatever kills the server
// (SIGKILL included), the next start or `npm run clean` stops what it left: a worker
// stopped mid-stall (SIGSTOP) cannot notice its parent is gone and would stay stopped forever.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandLine, isSameProcess, signal, startTicks, waitForExit } from '../services/pids.js';
import { THIS_PROCESS } from './runRegistry.js';

interface Owned {
  pid: number;
  ticks: string | null;
  /** What it is, for the log: "worker", "failover redis-server". */
  what: string;
}

interface StateFile {
  owner: { pid: number; ticks: string | null; host: string };
  children: Owned[];
}

/** Where every racelab process keeps the list of its children: one file per process. */
export const OWNED_DIR = path.join(os.tmpdir(), 'racelab-owned');

const mine = new Map<number, Owned>();
const myFile = path.join(OWNED_DIR, `${process.pid}.json`);

function save(): void {
  try {
    if (mine.size === 0) {
      rmSync(myFile, { force: true });
      return;
    }
    mkdirSync(OWNED_DIR, { recursive: true });
    const state: StateFile = { owner: { ...THIS_PROCESS }, children: [...mine.values()] };
    // Written whole or not at all (a crash mid-write must not leave a list nobody can read).
    writeFileSync(`${myFile}.tmp`, JSON.stringify(state));
    renameSync(`${myFile}.tmp`, myFile);
  } catch {
    // A read-only temp folder: nothing is recorded, and a crash may leave processes behind.
  }
}

/** Records a child until it exits; the next start stops it if this process dies first. */
export function own(child: ChildProcess, what: string): void {
  const pid = child.pid;
  if (pid === undefined) return;
  mine.set(pid, { pid, ticks: startTicks(pid), what });
  save();
  child.once('exit', () => {
    mine.delete(pid);
    save();
  });
}

/**
 * Stops the children of racelab processes that no longer run (SIGCONT first, so a stopped
 * one is not left stopped, then SIGKILL) and removes their state files; returns what it
 * stopped, in words, one line each.
 */
export async function reapOwnedProcesses(): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(OWNED_DIR).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const stopped: string[] = [];
  for (const name of names) {
    const file = path.join(OWNED_DIR, name);
    let state: StateFile;
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
    } catch {
      continue; // gone meanwhile (its owner's last child exited)
    }
    // Another machine's (or another test's, see RACELAB_HOST_ID), or its owner still runs: not ours.
    if (state.owner.host !== THIS_PROCESS.host || isSameProcess(state.owner.pid, state.owner.ticks)) continue;
    for (const child of state.children) {
      // Only the very process recorded (same start), and only while it is still what it was.
      if (!isSameProcess(child.pid, child.ticks) || commandLine(child.pid) === null) continue;
      signal(child.pid, 'SIGCONT');
      signal(child.pid, 'SIGKILL');
      await waitForExit(child.pid, 2000);
      stopped.push(`${child.what} (pid ${child.pid}) of racelab process ${state.owner.pid}`);
    }
    rmSync(file, { force: true });
  }
  return stopped;
}

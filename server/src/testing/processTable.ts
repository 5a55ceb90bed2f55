// What /proc says of processes, for tests of what a crash leaves running (Linux only).
import { readdirSync, readFileSync } from 'node:fs';
import { commandLine } from '../services/pids.js';

export interface ProcessEntry {
  pid: number;
  /** The state letter: R running, S sleeping, T stopped, Z zombie. */
  state: string;
  command: string;
}

/** One process's state letter; throws when it is gone. */
export function processState(pid: number): string {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0]!;
}

/** The processes whose parent is `parent`. */
export function childrenOf(parent: number): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const [state, ppid] = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return Number(ppid) === parent ? [{ pid: Number(name), state: state!, command: commandLine(Number(name)) ?? '' }] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** A process's parent pid; throws when it is gone. */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

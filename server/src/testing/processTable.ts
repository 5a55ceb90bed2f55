// What /proc says of processes, for tests of what a crash leaves running (Linux only).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
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

/**
 * The addresses a process listens on over TCP ('127.0.0.1:8080', '[::]:8080'), read from its
 * own network namespace's socket tables and its open files: what the kernel says, whatever
 * other processes hold the same port on other addresses.
 */
export function listeningAddresses(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''];
      } catch {
        return []; // closed meanwhile
      }
    }),
  );
  return ['tcp', 'tcp6'].flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // local address, state 0A (LISTEN), inode
      .filter((fields) => fields[3] === '0A' && inodes.has(fields[9] ?? ''))
      .map((fields) => socketAddress(fields[1]!)),
  );
}

/** /proc/net/tcp's `0100007F:1F90` as 127.0.0.1:8080; tcp6's 32 hex digits as [a:b:...]:port. */
function socketAddress(local: string): string {
  const [hex, port] = local.split(':') as [string, string];
  // Each 32-bit word of the address is in the machine's (little-endian) byte order.
  const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) => (word.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  const address =
    bytes.length === 4
      ? bytes.join('.')
      : `[${Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':')}]`;
  return `${address}:${parseInt(port, 16)}`;
}

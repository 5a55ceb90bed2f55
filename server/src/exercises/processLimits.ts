// Who an edited code's process runs as, and the kernel's limits it runs under. As root, each
// process gets a uid of its own from this server's block (BASE + pid × 32 + slot: no other
// server's, no user's, under 2^31), so that the network rule can name the block and the
// process limit counts that one process's threads alone; the processes of one run share a
// gid, which owns their scratch folder. setpriv (util-linux) drops to them, inside whatever
// a lab wraps the command in (a namespace is entered as root). The limits are prlimit's, set
// by the process on itself before it becomes node: lowering a limit needs no privilege, so
// they apply as root or not.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The first uid of racelab's range: above systemd's container ranges, below 2^31. */
export const UID_BASE = 2_000_000_000;
/** Uids per server: a slot for the thread probe and 31 processes at once. */
export const UIDS_PER_SERVER = 32;
/** Linux pids are below 2^22, so every server's block stays under 2^31. */
const PID_LIMIT = 2 ** 22;

/** The limits of one edited code's process. */
export const LIMITS = {
  /** Virtual address space: V8 reserves ~750 MB before it runs a line, and a 128 MB heap's semi-spaces need 1.5 GB (measured). */
  addressSpaceBytes: 2 * 1024 ** 3,
  /** CPU seconds, a backstop: the run's deadline (wall time) ends a run first. */
  cpuSeconds: 60,
  /** The largest file it may write (in its scratch folder). */
  fileBytes: 64 * 1024 ** 2,
  /** File descriptors: its store connections and node's own. */
  openFiles: 256,
} as const;

/** The block of uids of the server with this pid. */
export function serverUids(pid = process.pid): { first: number; last: number } {
  if (!Number.isInteger(pid) || pid <= 0 || pid >= PID_LIMIT) throw new Error(`no uid block for pid ${pid}`);
  const first = UID_BASE + pid * UIDS_PER_SERVER;
  return { first, last: first + UIDS_PER_SERVER - 1 };
}

/** A uid of this server's, held by one process until released, and the gid it shares with the processes of its group. */
export interface UidSlot {
  uid: number;
  gid: number;
  release(): void;
}

/** Uids held by a running process, or naming a group that still has one. */
const taken = new Set<number>();
/** The processes that share a scratch folder (one run's workers): one gid, the uid of the first. */
const groups = new Map<string, { gid: number; members: number }>();

/** Takes a free uid of the block (slot 0 is the probe's) for a process of `group`; throws when all are taken. */
export function takeUid(group: string, block = serverUids()): UidSlot {
  let uid = block.first + 1;
  while (uid <= block.last && taken.has(uid)) uid++;
  if (uid > block.last) {
    throw new Error(`${UIDS_PER_SERVER - 1} processes of edited code are already running on this server: try again when one has ended`);
  }
  taken.add(uid);
  const shared = groups.get(group) ?? { gid: uid, members: 0 };
  groups.set(group, shared);
  shared.members++;
  let held = true;
  return {
    uid,
    gid: shared.gid,
    release: () => {
      if (!held) return;
      held = false;
      shared.members--;
      // The group's gid stays taken while any process of the group runs: no stranger gets its files.
      if (uid !== shared.gid) taken.delete(uid);
      if (shared.members === 0) {
        groups.delete(group);
        taken.delete(shared.gid);
      }
    },
  };
}

/** setpriv's arguments that make the rest of the command line run as this uid and gid, with no groups and no way back to privilege (no setuid binary). */
export const dropTo = ({ uid, gid }: { uid: number; gid: number }): string[] => [
  'setpriv',
  `--reuid=${uid}`,
  `--regid=${gid}`,
  '--clear-groups',
  '--no-new-privs',
];

/**
 * V8 reserves 10 GB of address space for each WebAssembly memory to catch bounds by a trap;
 * under the address-space limit that fails, and Node's own fetch (and pg, which makes a
 * Response at its first connect) instantiates WebAssembly: with this flag V8 checks bounds in
 * the code instead and reserves only what the memory holds.
 */
export const WASM_WITHOUT_TRAPS = '--disable-wasm-trap-handler';

/** Whether this node takes WASM_WITHOUT_TRAPS (Node 20.15, 22.2 and later): without it, no address-space limit. */
export async function takesWasmWithoutTraps(node: string): Promise<boolean> {
  return run(node, [WASM_WITHOUT_TRAPS, '-e', '0'], { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/** prlimit's arguments before the command: the limits, no core dumps, and the thread cap where there is one. */
export function prlimitArgs(threads: number | null, addressSpace = true): string[] {
  return [
    ...(addressSpace ? [`--as=${LIMITS.addressSpaceBytes}`] : []),
    `--cpu=${LIMITS.cpuSeconds}`,
    `--fsize=${LIMITS.fileBytes}`,
    `--nofile=${LIMITS.openFiles}`,
    '--core=0',
    ...(threads === null ? [] : [`--nproc=${threads}`]),
    '--',
  ];
}

/** Whether this util-linux command is installed and works here (prlimit, setpriv). */
export async function commandWorks(command: 'prlimit' | 'setpriv'): Promise<boolean> {
  return run(command, ['--version'], { timeout: 5000 }).then(
    () => true,
    () => false,
  );
}

// libuv's pool of one thread: started whole at its first use, so a node's threads reach
// their most then and stay there.
export const THREAD_POOL_ENV = { UV_THREADPOOL_SIZE: '1' } as const;

const PROBE = `const fs = require('fs');
fs.readFile('/proc/self/status', () => console.log(/Threads:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]));`;

/**
 * The threads a node has once its pool runs, measured under `uid` with the same limits: the
 * process limit is set to exactly this, so a fork or a thread more fails (EAGAIN). Node's
 * permission model starts one thread fewer (no inspector), so each kind is measured.
 */
export async function measureThreads(node: string, uid: number, permission: boolean, addressSpace: boolean): Promise<number> {
  const flags = [
    ...(addressSpace ? [WASM_WITHOUT_TRAPS] : []),
    ...(permission ? ['--experimental-permission', '--allow-fs-read=/proc/self/status', '--no-warnings'] : []),
  ];
  const argv = [...dropTo({ uid, gid: uid }), 'prlimit', ...prlimitArgs(null, addressSpace), node, ...flags, '-e', PROBE];
  const { stdout } = await run(argv[0]!, argv.slice(1), {
    cwd: '/',
    env: { ...THREAD_POOL_ENV, PATH: process.env.PATH ?? '' },
    timeout: 10_000,
  });
  const threads = Number(stdout.trim());
  if (!Number.isInteger(threads) || threads < 2) throw new Error(`the thread probe printed ${JSON.stringify(stdout)}`);
  return threads;
}

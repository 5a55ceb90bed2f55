// Who an edited code's process runs as, and the kernel's limits it runs under. As root, each
// process gets a uid of its own from this server's block (BASE + pid × 32 + slot: no other
// server's, no user's, under 2^31 for Node's spawn options), so that the network rule can name
// the block and the process limit can count that one process's threads alone. The limits are
// prlimit's (util-linux), set by the process on itself before it becomes node: lowering a
// limit needs no privilege, so they apply as root or not.
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

/** A uid of this server's, held by one process until released. */
export interface UidSlot {
  uid: number;
  release(): void;
}

const taken = new Set<number>();

/** Takes a free uid of the block (slot 0 is the probe's); throws when all are running. */
export function takeUid(block = serverUids()): UidSlot {
  for (let uid = block.first + 1; uid <= block.last; uid++) {
    if (taken.has(uid)) continue;
    taken.add(uid);
    let held = true;
    return {
      uid,
      release: () => {
        if (held) taken.delete(uid);
        held = false;
      },
    };
  }
  throw new Error(`${UIDS_PER_SERVER - 1} processes of edited code are already running on this server: try again when one has ended`);
}

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

/** Whether prlimit is installed and works here. */
export async function prlimitWorks(): Promise<boolean> {
  return run('prlimit', ['--version'], { timeout: 5000 }).then(
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
  const { stdout } = await run('prlimit', [...prlimitArgs(null, addressSpace), node, ...flags, '-e', PROBE], {
    uid,
    gid: uid,
    cwd: '/',
    env: { ...THREAD_POOL_ENV, PATH: process.env.PATH ?? '' },
    timeout: 10_000,
  });
  const threads = Number(stdout.trim());
  if (!Number.isInteger(threads) || threads < 2) throw new Error(`the thread probe printed ${JSON.stringify(stdout)}`);
  return threads;
}

// Where the machine's CPU went while a run was on, read from /proc: the page's renderer,
// Chromium's other processes, the bench server, its worker processes and everything else.
// A latency measured on a machine whose cores are all busy is mostly queueing; these
// figures say whether that was so, and which process the cores went to.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
const TICKS = 100;

interface Proc {
  /** utime + stime, ticks. */
  own: number;
  /** cutime + cstime: what its exited and reaped children used, ticks. */
  children: number;
  cmdline: string;
  /**
   * A renderer's main thread (the process's first), from /proc/<pid>/schedstat: ns it ran
   * on a core, and ns it was ready to run but waited for one (every core busy); else null.
   */
  main: { runNs: number; waitNs: number; nice: number } | null;
}

export interface CpuSnapshot {
  atMs: number;
  procs: Map<number, Proc>;
  /** /proc/stat's first line: all ticks and idle ticks (idle + iowait) of the machine. */
  machine: { total: number; idle: number };
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses; utime is field 14.
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return {
      own: Number(f[11]) + Number(f[12]),
      children: Number(f[13]) + Number(f[14]),
      cmdline,
      main: mainThread(pid, cmdline, Number(f[16])),
    };
  } catch {
    return null; // gone meanwhile
  }
}

/** `nice`: the process's (its first thread's) nice value, /proc/<pid>/stat's 19th field. */
function mainThread(pid: number, cmdline: string, nice: number): Proc['main'] {
  if (!isRenderer(cmdline)) return null;
  try {
    const [runNs, waitNs] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return runNs === undefined || waitNs === undefined ? null : { runNs, waitNs, nice };
  } catch {
    return null; // gone meanwhile, or a kernel without scheduler statistics
  }
}

const isRenderer = (cmdline: string) => cmdline.includes('chromium') && cmdline.includes('--type=renderer');

export function cpuSnapshot(): CpuSnapshot {
  const procs = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) procs.set(Number(name), p);
  }
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { atMs: performance.now(), procs, machine: { total, idle: (ticks[3] ?? 0) + (ticks[4] ?? 0) } };
}

/** Cores used on average between two snapshots, by who used them. */
export interface CpuUse {
  seconds: number;
  /** The machine's cores: what the figures below are shares of. */
  cores: number;
  renderer: number;
  chromiumOther: number;
  server: number;
  workers: number;
  rest: number;
  /** The machine's busy share of all its cores, from /proc/stat (everything, kernel included). */
  machineBusy: number;
  /**
   * The main thread of the renderer that worked most (the page's): ms on a core, and ms it
   * was ready to run but every core was taken; null where the kernel keeps no such figures.
   */
  pageMainThread: { runMs: number; waitMs: number; nice: number } | null;
}

/**
 * `serverPid`: the bench server, whose worker processes are its children. A worker that
 * exits during the window is counted by its parent's reaped-children time (less what the
 * first snapshot had already seen of it); one forked during the window (the pool refilling
 * after the run) is left out of `workers` and `rest`, as is any process born meanwhile.
 */
export function cpuUse(a: CpuSnapshot, b: CpuSnapshot, serverPid: number): CpuUse {
  const seconds = (b.atMs - a.atMs) / 1000;
  const use = { renderer: 0, chromiumOther: 0, server: 0, workers: 0, rest: 0 };
  let page: { ticks: number; main: CpuUse['pageMainThread'] } | null = null;
  for (const [pid, before] of a.procs) {
    const after = b.procs.get(pid);
    const isWorker = before.cmdline.includes('emitterWorker');
    if (!after) {
      // Exited: a worker's whole life is in the server's reaped time; take off what was seen.
      if (isWorker) use.workers -= before.own;
      continue;
    }
    const d = after.own - before.own;
    if (pid === serverPid) {
      use.server += d;
      use.workers += after.children - before.children;
    } else if (isWorker) use.workers += d;
    else if (before.cmdline.includes('chromium')) {
      if (isRenderer(before.cmdline)) {
        use.renderer += d;
        if (!page || d > page.ticks) {
          const main =
            before.main && after.main
              ? {
                  runMs: (after.main.runNs - before.main.runNs) / 1e6,
                  waitMs: (after.main.waitNs - before.main.waitNs) / 1e6,
                  nice: after.main.nice,
                }
              : null;
          page = { ticks: d, main };
        }
      } else use.chromiumOther += d;
    } else use.rest += d;
  }
  const asCores = (ticks: number) => ticks / TICKS / Math.max(1e-9, seconds);
  const busy = 1 - (b.machine.idle - a.machine.idle) / Math.max(1, b.machine.total - a.machine.total);
  return {
    seconds,
    cores: cpus().length,
    renderer: asCores(use.renderer),
    chromiumOther: asCores(use.chromiumOther),
    server: asCores(use.server),
    workers: asCores(use.workers),
    rest: asCores(use.rest),
    machineBusy: busy,
    pageMainThread: page?.main ?? null,
  };
}

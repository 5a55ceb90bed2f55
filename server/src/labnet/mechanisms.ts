// Which real mechanisms this machine gives the labs, found once at first use. As root on
// Linux, with `ip` able to make a network namespace, a lab's workers and nodes run as hosts
// of their own and a partition is the kernel's (a link down, or an nftables rule where `nft`
// is installed), and a slow node is the kernel's netem where the kernel has it (else a
// delaying proxy); with libfaketime installed, a worker's wall clock is really moved; on Linux
// with a C compiler, so is a lab redis-server's, by a preload of our own (wallClockShim.c).
// Anywhere else every lab keeps its in-process imitation (a proxy, an adjusted expiry) and says so.
// RACELAB_REAL_FAULTS=off forces the imitations (the fallback's tests; a machine where the
// real ones misbehave).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { scratchNamespace } from './labHost.js';
import { buildWallClockShim } from './wallClockShim.js';

export interface LabMechanisms {
  /** Workers and lab nodes may run in network namespaces of their own. */
  namespaces: boolean;
  /** `nft` works inside a namespace: one pair of hosts can be cut while the rest stay linked. */
  nftables: boolean;
  /**
   * Does the kernel have netem (tc-netem(8))? Then a slow lab node is a qdisc on the workers'
   * links, not the delaying proxy. Asked by a run that can slow a node, not looked at with the
   * rest: its probe makes and deletes a namespace, which must not stop this process meanwhile
   * (a store's ping left unread that long reads as a frozen store).
   */
  netem(): Promise<boolean>;
  /** The libfaketime library to preload, when there is one. */
  faketime: string | null;
  /** The wall clock shim's library to preload into a lab redis-server whose clock moves, when it builds here. */
  wallClockShim: string | null;
  /** Why a real mechanism is not used, in words, for the log and the docs. */
  why: string[];
}

/** What a fault's `mechanism` says: the words the page and the CLI's JSON show. */
export const MECHANISM = {
  nftables: 'kernel nftables drop',
  linkDown: 'kernel link down',
  proxy: 'proxy',
  netem: 'kernel netem',
  proxyDelay: 'proxy delay',
  faketime: 'libfaketime',
  wallClockShim: 'LD_PRELOAD wall clock',
  simulatedExpiry: 'simulated expiry',
  simulatedClock: 'simulated clock',
  pgbouncerTransactionPool: 'pgbouncer transaction pool',
} as const;

/** Where Debian and others put libfaketime: searched, not assumed (the multiarch folder varies). */
const LIBRARY_ROOTS = ['/usr/lib', '/usr/lib64', '/usr/local/lib', '/lib'];
const LIBRARY = 'libfaketime.so.1';

/** Finds libfaketime's library under the usual library folders, one level of subfolders deep (a multiarch folder, then faketime/). */
export function findFaketimeLibrary(roots: string[] = LIBRARY_ROOTS): string | null {
  for (const root of roots) {
    const candidates = [path.join(root, 'faketime', LIBRARY), path.join(root, LIBRARY)];
    try {
      for (const sub of readdirSync(root)) candidates.push(path.join(root, sub, 'faketime', LIBRARY));
    } catch {
      continue;
    }
    const found = candidates.find((file) => existsSync(file));
    if (found) return found;
  }
  return null;
}

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

const run = promisify(execFile);
const succeeds = (command: string, args: string[]): Promise<boolean> =>
  run(command, args, { timeout: 5000 }).then(
    () => true,
    () => false,
  );

/**
 * Does the kernel take a netem qdisc? Tried on a veth of a scratch namespace, deleted at once
 * with all it holds (a crash between the two leaves a namespace the sweep deletes). Many
 * kernels build netem as a module that is not there ("Specified qdisc kind is unknown").
 */
async function netemWorks(): Promise<boolean> {
  const namespace = scratchNamespace();
  if (!(await succeeds('ip', ['netns', 'add', namespace]))) return false;
  try {
    return (
      (await succeeds('ip', ['-n', namespace, 'link', 'add', 'probe0', 'type', 'veth', 'peer', 'name', 'probe1'])) &&
      (await succeeds('tc', ['-n', namespace, 'qdisc', 'add', 'dev', 'probe0', 'root', 'netem', 'delay', '1ms']))
    );
  } finally {
    await succeeds('ip', ['netns', 'delete', namespace]);
  }
}

let netemFound: Promise<boolean> | undefined;
/** Whether the kernel has netem, probed once per process, at the first ask. */
const kernelNetem = (): Promise<boolean> => (netemFound ??= netemWorks());
const noNetem = (): Promise<boolean> => Promise.resolve(false);

/** Looks at the machine: no cache, for tests and the first use. */
export function detectLabMechanisms(env: NodeJS.ProcessEnv = process.env): LabMechanisms {
  const why: string[] = [];
  const forcedOff = env.RACELAB_REAL_FAULTS === 'off';
  if (forcedOff) why.push('RACELAB_REAL_FAULTS=off');
  let namespaces = false;
  if (!forcedOff) {
    if (process.platform !== 'linux') why.push('not Linux');
    else if (process.getuid?.() !== 0) why.push('not root');
    else if (!works('ip', ['netns', 'list'])) why.push('`ip netns` does not work');
    else namespaces = true;
  }
  const nftables = namespaces && works('nft', ['--version']);
  if (namespaces && !nftables) why.push('`nft` is not installed (a partition cuts a whole link)');
  // Only lab hosts' links can carry a qdisc of racelab's.
  const netem = namespaces ? kernelNetem : noNetem;
  const faketime = forcedOff ? null : findFaketimeLibrary();
  if (!forcedOff && !faketime) why.push('libfaketime is not installed');
  // Built once per machine (a cache keyed by its source), so only the first process compiles.
  const shim = forcedOff ? null : process.platform === 'linux' ? buildWallClockShim() : { why: 'the wall clock shim is for Linux' };
  if (shim && 'why' in shim) why.push(shim.why);
  const wallClockShim = shim && 'library' in shim ? shim.library : null;
  return { namespaces, nftables, netem, faketime, wallClockShim, why };
}

let found: LabMechanisms | undefined;

/** The machine's mechanisms, looked at once per process. */
export function labMechanisms(): LabMechanisms {
  found ??= detectLabMechanisms();
  return found;
}

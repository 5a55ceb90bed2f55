// Where a learner's edited code runs: the operating system's walls around its node process,
// beyond what Node's permission model and heap limit give inside it. As root on Linux each
// process runs as a uid of its own (no file of the server's but what all may read; its
// scratch folder its run's, through a gid the run's processes share), reaches only the stores (nftables, exerciseFirewall.ts), and has
// its threads capped at what node needs (so a fork fails), its address space, CPU time and
// file size limited (prlimit, processLimits.ts). Where the machine does not allow a wall
// (not root, no nft, no prlimit), the rest still stand and the description says which is
// missing, once, in the server's log and on the page.
import { chown, chmod, readdir } from 'node:fs/promises';
import path from 'node:path';
import { installFirewall, nft, type Endpoint, type Firewall } from './exerciseFirewall.js';
import {
  commandWorks,
  dropTo,
  LIMITS,
  measureThreads,
  prlimitArgs,
  serverUids,
  takeUid,
  takesWasmWithoutTraps,
  THREAD_POOL_ENV,
  WASM_WITHOUT_TRAPS,
} from './processLimits.js';

export type { Endpoint } from './exerciseFirewall.js';

/** A node command line, as the engine would spawn it. */
export interface NodeCommandLine {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** What to confine: the command line, its scratch folder and the stores it may reach. */
export interface ConfineRequest extends NodeCommandLine {
  scratch: string;
  /** The run's own folders the process writes in besides its scratch (a setup's), shared with it the same way. */
  folders?: string[];
  stores: Endpoint[];
}

/** The command line to spawn instead (it drops to `uid` and `gid` itself); `release` once the process has exited. */
export interface ConfinedCommandLine extends NodeCommandLine {
  /** The uid and gid node will run as, where it runs as its own. */
  uid?: number;
  gid?: number;
  release(): void;
}

/** What the machine gives, looked at once. */
export interface Abilities {
  /** Root on Linux: processes may run as uids of racelab's. */
  root: boolean;
  /** util-linux's setpriv, which drops to them. */
  setpriv: boolean;
  nft: boolean;
  prlimit: boolean;
}

/** What was applied, for the server's log and the exercise status. */
export interface ConfinementDescription {
  ownUid: boolean;
  network: boolean;
  limits: boolean;
  /** The address-space limit stands (the node runs WebAssembly without its 10 GB reservations). */
  addressSpace: boolean;
  /** A fork fails for the kernel's process limit, not only for Node's permission model. */
  noChildProcesses: boolean;
  /** One sentence: "confined: …" or "partly confined: …". */
  words: string;
}

/** The walls of this server's edited code, open from the server's start to its stop. */
export interface Confinement {
  description: ConfinementDescription;
  /** The command line wrapped in every wall the machine allows (the stores allowed first). */
  wrap(request: ConfineRequest): Promise<ConfinedCommandLine>;
  close(): Promise<void>;
}

const GB = (bytes: number): string => `${bytes / 1024 ** 3} GB`;
const MB = (bytes: number): string => `${bytes / 1024 ** 2} MB`;

/** The sentence for what was applied; `why` names each missing wall's reason. */
export function describe(applied: Omit<ConfinementDescription, 'words'>, why: { uid?: string; network?: string }): ConfinementDescription {
  const limits = [
    applied.addressSpace
      ? `${GB(LIMITS.addressSpaceBytes)} address space`
      : 'no address-space limit (this node cannot run WebAssembly under one)',
    `${LIMITS.cpuSeconds} s of CPU`,
    `${MB(LIMITS.fileBytes)} files`,
  ];
  const parts = [
    applied.ownUid ? 'own uid' : `same uid as the server (${why.uid})`,
    applied.network ? 'network to the stores only' : `network not confined (${why.network})`,
    ...(applied.limits ? limits : ['no kernel limits (prlimit is not installed): the heap limit only']),
    applied.noChildProcesses ? 'no child processes' : "child processes refused by Node's permission model only",
  ];
  const whole = applied.ownUid && applied.network && applied.limits && applied.addressSpace && applied.noChildProcesses;
  return { ...applied, words: `${whole ? 'confined' : 'partly confined'}: ${parts.join(', ')}` };
}

/** Looks at the machine (no cache). */
export async function detectAbilities(): Promise<Abilities> {
  const root = process.platform === 'linux' && process.getuid?.() === 0;
  const hasNft =
    root &&
    (await nft(['list', 'tables']).then(
      () => true,
      () => false,
    ));
  const linux = process.platform === 'linux';
  return { root, setpriv: root && (await commandWorks('setpriv')), nft: hasNft, prlimit: linux && (await commandWorks('prlimit')) };
}

interface Machine {
  description: ConfinementDescription;
  firewall: Firewall | null;
  /** The process limit by kind of command line (with Node's permission model or without), as root. */
  threads: { permission: number; plain: number } | null;
}

const notRoot = (): string => (process.platform === 'linux' ? 'not root' : 'not Linux');

let machine: Promise<Machine> | undefined;
// The last walls' removal: new walls wait for it, so it never deletes a chain made after it.
let removed: Promise<unknown> = Promise.resolve();
let opened = 0;
let described: ConfinementDescription | undefined;

async function setUp(abilities: Abilities): Promise<Machine> {
  const block = serverUids();
  const ownUid = abilities.root && abilities.setpriv;
  const [firewall, addressSpace] = await Promise.all([
    abilities.nft ? installFirewall(block) : null,
    abilities.prlimit && takesWasmWithoutTraps(process.execPath),
  ]);
  const measured =
    ownUid && abilities.prlimit
      ? await Promise.all([true, false].map((permission) => measureThreads(process.execPath, block.first, permission, addressSpace)))
      : null;
  const threads = measured && { permission: measured[0]!, plain: measured[1]! };
  const description = describe(
    { ownUid, network: firewall !== null, limits: abilities.prlimit, addressSpace, noChildProcesses: threads !== null },
    { uid: abilities.root ? 'setpriv is not installed' : notRoot(), network: abilities.root ? 'nft is not installed' : notRoot() },
  );
  return { description, firewall, threads };
}

/**
 * Opens the walls for a server whose runs reach these stores: installs its network rule where
 * it can and measures what node needs. Opened again in one process (several playgrounds),
 * the walls are shared and stand until the last one closes. `abilities` is for tests of a
 * machine that gives less: such walls are the caller's alone, with no network rule.
 */
export async function openConfinement(stores: Endpoint[], abilities?: Abilities): Promise<Confinement> {
  if (abilities) {
    const own = await setUp({ ...abilities, nft: false });
    return { description: own.description, wrap: (request) => wrap(own, request), close: async () => undefined };
  }
  opened++;
  machine ??= removed.then(detectAbilities).then(setUp);
  const ready = await machine.catch((error: unknown) => {
    opened--;
    if (opened === 0) machine = undefined;
    throw error;
  });
  await ready.firewall?.allow(stores);
  described = ready.description;
  let closed = false;
  return {
    description: ready.description,
    wrap: (request) => wrap(ready, request),
    async close() {
      if (closed) return;
      closed = true;
      if (--opened > 0) return;
      machine = undefined;
      removed = ready.firewall?.remove() ?? Promise.resolve();
      await removed;
    },
  };
}

/** The sentence of the walls this server has opened, or of what the machine would give (for the start log and the exercise status). */
export async function describeConfinement(): Promise<string> {
  if (described && machine) return described.words;
  const abilities = await detectAbilities();
  const addressSpace = abilities.prlimit && (await takesWasmWithoutTraps(process.execPath));
  return describe(
    {
      ownUid: abilities.root && abilities.setpriv,
      network: abilities.nft,
      limits: abilities.prlimit,
      addressSpace,
      noChildProcesses: abilities.root && abilities.setpriv && abilities.prlimit,
    },
    { uid: abilities.root ? 'setpriv is not installed' : notRoot(), network: abilities.root ? 'nft is not installed' : notRoot() },
  ).words;
}

const usesPermissionModel = (args: string[]): boolean => args.some((a) => a === '--experimental-permission' || a === '--permission');

async function wrap(ready: Machine, request: ConfineRequest): Promise<ConfinedCommandLine> {
  const { command, args, env, cwd, scratch, stores, folders = [] } = request;
  const { limits, addressSpace, ownUid } = ready.description;
  await ready.firewall?.allow(stores);
  const slot = ownUid ? takeUid(scratch) : null;
  try {
    if (slot) for (const dir of [scratch, ...folders]) await shareTree(dir, slot.gid);
  } catch (error) {
    slot?.release();
    throw error;
  }
  const threads = slot && ready.threads ? ready.threads[usesPermissionModel(args) ? 'permission' : 'plain'] : null;
  const node = [command, ...(addressSpace ? [WASM_WITHOUT_TRAPS] : []), ...args];
  const limited = limits ? ['prlimit', ...prlimitArgs(threads, addressSpace), ...node] : node;
  const argv = slot ? [...dropTo(slot), ...limited] : limited;
  return {
    command: argv[0]!,
    args: argv.slice(1),
    env: threads === null ? env : { ...env, ...THREAD_POOL_ENV },
    cwd,
    ...(slot ? { uid: slot.uid, gid: slot.gid } : {}),
    release: slot ? slot.release : () => undefined,
  };
}

/** Gives the scratch folder and what is in it to the group of the processes that share it (one run's), for them alone. */
async function shareTree(dir: string, gid: number): Promise<void> {
  await chown(dir, gid, gid);
  await chmod(dir, 0o770);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const inside = path.join(dir, entry.name);
    if (entry.isDirectory()) await shareTree(inside, gid);
    else if (entry.isFile()) {
      await chown(inside, gid, gid);
      await chmod(inside, 0o660);
    }
  }
}

let held: Promise<Confinement> | undefined;

/** The walls of this process's edited code: opened at the first ask (the server's start, or a first check), kept until closeExerciseConfinement. */
export function exerciseConfinement(stores: Endpoint[]): Promise<Confinement> {
  held ??= openConfinement(stores).catch((error: unknown) => {
    held = undefined;
    throw error;
  });
  return held;
}

/** Closes what exerciseConfinement opened: the server's stop. */
export async function closeExerciseConfinement(): Promise<void> {
  const walls = held;
  held = undefined;
  await (await walls?.catch(() => undefined))?.close();
}

/** The stores a run's worker reaches, from its URLs. */
export function storesOf(urls: { redisUrl: string; databaseUrl: string }): Endpoint[] {
  const endpoint = (url: string, port: number): Endpoint => {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: Number(parsed.port || port) };
  };
  return [endpoint(urls.redisUrl, 6379), endpoint(urls.databaseUrl, 5432)];
}

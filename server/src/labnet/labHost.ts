// A lab host: one network namespace of this server's, linked to the host by a veth pair
// with an address at each end (a /30 under LAB_PREFIX). A worker run inside it reaches the
// host only over that link; a partition is the kernel's: the host end set down (every
// connection of the host hangs), or an nftables rule inside the namespace that drops what
// it sends to one address and port (one pair cut, the rest linked), deleted again by its
// handle when the pair is to be linked again (the other rules stay). The veth's host end is
// created with its peer already in the namespace, so deleting the namespace takes both:
// nothing of a lab host is left outside its namespace, and the start-up sweep
// (debris/namespaces.ts) needs to find namespaces only.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { THIS_PROCESS } from '../debris/runRegistry.js';

const run = promisify(execFile);

/** Every address of a lab link is under this /16 (a private range, only ever on links this server made). */
export const LAB_PREFIX = '10.213';
/** The namespaces this server creates: racelab-<pid>-<start ticks>-<n>; the sweep reads the owner from the name. */
export const NAMESPACE_PREFIX = 'racelab-';
const OWNER = `${THIS_PROCESS.pid}-${THIS_PROCESS.ticks ?? 'x'}`;
/** The link's end inside every namespace. */
const INNER_LINK = 'lab0';

/** One nftables rule of a lab host's, as made: lifting it deletes that rule alone (by its handle), once however often it is called. */
export interface DropRule {
  lift(): Promise<void>;
}

export interface LabHost {
  /** What it stands for: a worker id, a node's name. */
  name: string;
  namespace: string;
  /** The host end's address: where the host's services for this lab host listen. */
  hostAddress: string;
  /** The namespace end's address. */
  address: string;
  /** The host end of the veth pair. */
  hostLink: string;
  /** The command line that runs `argv` inside the namespace (`ip netns exec` execs in place: same pid, same stdio and IPC). */
  wrap(argv: string[]): string[];
  /**
   * Drops, in the kernel, whatever this host sends to `address` (on `port`, when given): a
   * connection there hangs. Lifting the rule lets the pair talk again: what the host sent
   * meanwhile was dropped, and TCP sends it again, so its connections go on where they stopped.
   */
  drop(address: string, port?: number): Promise<DropRule>;
  /** Drops, in the kernel, whatever reaches this host from `address`'s `port`: what that service sends never arrives, what it is sent still does. */
  dropFrom(address: string, port: number): Promise<void>;
  /** Sets the host end of the link down (`up` false) or up again. */
  setLink(up: boolean): Promise<void>;
  /** Deletes the namespace and with it the link; processes inside must be gone. */
  close(): Promise<void>;
}

let created = 0;

/** A fresh namespace name of this server's, for a look at what the kernel gives (mechanisms.ts); the sweep finds it like a lab host's. */
export function scratchNamespace(): string {
  return `${NAMESPACE_PREFIX}${OWNER}-${created++}`;
}
// One allocation at a time in this process: two runs starting together never pick one block.
let allocating: Promise<unknown> = Promise.resolve();

/** Runs a command with `input` on its stdin; resolves with its stdout, throws with its stderr when it fails. */
async function runWithInput(argv: string[], input: string): Promise<string> {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => undefined); // a command that exits early reports its own failure
  child.stdin.end(input);
  // 'close', not 'exit': a process may have exited before all it printed has been read.
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${argv.join(' ')} failed: ${stderr.trim() || `exit ${code}`}`);
  return stdout;
}

/** `ip` with these arguments, or with a batch of commands on its stdin. */
const ip = async (args: string[], batch?: string): Promise<void> => {
  await runWithInput(['ip', ...args, ...(batch === undefined ? [] : ['-batch', '-'])], batch ?? '');
};

/** The /30 blocks of LAB_PREFIX in use on this machine's host side, by index. */
async function usedBlocks(): Promise<Set<number>> {
  const { stdout } = await run('ip', ['-4', '-o', 'addr', 'show']);
  const used = new Set<number>();
  for (const match of stdout.matchAll(new RegExp(`inet ${LAB_PREFIX.replace('.', '\\.')}\\.(\\d+)\\.(\\d+)/`, 'g'))) {
    used.add(Number(match[1]) * 64 + Math.floor(Number(match[2]) / 4));
  }
  return used;
}

const blockAddress = (block: number, host: 1 | 2): string => `${LAB_PREFIX}.${Math.floor(block / 64)}.${(block % 64) * 4 + host}`;

/** The host end's name carries its block: two servers that pick one block at once cannot both create it. */
const blockLink = (block: number): string => `rlab${block.toString(36)}`;

/**
 * Creates a lab host named `name`; throws (leaving nothing) when the kernel refuses. The
 * block is claimed by creating its link: the kernel lets one `link add` of a name succeed,
 * so a server that lost the race to another (or to anything else on the machine) gets
 * "File exists" and takes the next free block.
 */
export function createLabHost(name: string): Promise<LabHost> {
  const creating = allocating.then(async () => {
    const n = created++;
    const namespace = `${NAMESPACE_PREFIX}${OWNER}-${n}`;
    const used = await usedBlocks();
    for (let block = 1; block < 64 * 256; block++) {
      if (used.has(block)) continue;
      const hostLink = blockLink(block);
      const hostAddress = blockAddress(block, 1);
      const address = blockAddress(block, 2);
      try {
        await ip(
          [],
          `netns add ${namespace}\nlink add ${hostLink} type veth peer name ${INNER_LINK} netns ${namespace}\naddr add ${hostAddress}/30 dev ${hostLink}\nlink set ${hostLink} up\n`,
        );
        await ip(['-n', namespace], `addr add ${address}/30 dev ${INNER_LINK}\nlink set ${INNER_LINK} up\nlink set lo up\n`);
        return labHost(name, namespace, hostLink, hostAddress, address);
      } catch (error) {
        await ip(['netns', 'delete', namespace]).catch(() => undefined);
        if (!/file exists/i.test(String(error))) throw error;
      }
    }
    throw new Error(`no free lab address under ${LAB_PREFIX}.0.0/16`);
  });
  allocating = creating.catch(() => undefined);
  return creating;
}

/** The handle of the newest rule with this text in an `nft --handle list chain` listing, if any. */
export function newestRuleHandle(listing: string, text: string): number | undefined {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const handles = [...listing.matchAll(new RegExp(`^\\s*${escaped} # handle (\\d+)$`, 'gm'))].map((m) => Number(m[1]));
  return handles.length === 0 ? undefined : Math.max(...handles);
}

function labHost(name: string, namespace: string, hostLink: string, hostAddress: string, address: string): LabHost {
  let tableMade = false;
  let closing: Promise<void> | undefined;
  // The namespace's nft commands, one at a time, each script written when its turn comes: a
  // rule never races its table's making, nor a rule's delete its add. Each prints what it
  // made with its handle (--echo --handle).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const done = queue.then(task);
    queue = done.catch(() => undefined);
    return done;
  };
  const nftIn = (args: string[], input = ''): Promise<string> => runWithInput(['ip', 'netns', 'exec', namespace, 'nft', ...args], input);
  const nft = (script: () => string[]): Promise<string> =>
    serial(() => nftIn(['--echo', '--handle', '-f', '-'], `${script().join('\n')}\n`));
  // One table of racelab's in the namespace, a chain for what it sends and one for what it
  // receives; resolves with the new rule's handle.
  const rule = (chain: 'out' | 'in', text: string): Promise<number> =>
    serial(async () => {
      const made = await nftIn(
        ['--echo', '--handle', '-f', '-'],
        [
          ...(tableMade
            ? []
            : [
                'add table inet racelab',
                'add chain inet racelab out { type filter hook output priority 0 ; }',
                'add chain inet racelab in { type filter hook input priority 0 ; }',
              ]),
          `add rule inet racelab ${chain} ${text}`,
          '',
        ].join('\n'),
      );
      tableMade = true;
      const echoed = [...made.matchAll(/^add rule inet racelab \S+ .* # handle (\d+)$/gm)].at(-1)?.[1];
      if (echoed !== undefined) return Number(echoed);
      // Should nft's echo of what it made be missing (seen once on a loaded machine: exit 0,
      // nothing read, before its output was awaited to its close), the chain names the rule:
      // within this step nothing else is added to the namespace, and handles only grow.
      const handle = newestRuleHandle(await nftIn(['--handle', 'list', 'chain', 'inet', 'racelab', chain]), text);
      if (handle === undefined) throw new Error(`nft made no rule '${text}' that it could name: ${made.trim() || 'no output'}`);
      return handle;
    });
  return {
    name,
    namespace,
    hostAddress,
    address,
    hostLink,
    wrap: (argv) => ['ip', 'netns', 'exec', namespace, ...argv],
    async drop(target, port) {
      const handle = await rule('out', `ip daddr ${target}${port === undefined ? '' : ` tcp dport ${port}`} drop`);
      let lifting: Promise<void> | undefined;
      return {
        lift() {
          lifting ??= nft(() => [`delete rule inet racelab out handle ${handle}`]).then(
            () => undefined,
            (error: unknown) => {
              lifting = undefined; // not lifted: a later lift tries again
              throw error;
            },
          );
          return lifting;
        },
      };
    },
    async dropFrom(source, port) {
      await rule('in', `ip saddr ${source} tcp sport ${port} drop`);
    },
    async setLink(up) {
      await ip(['link', 'set', hostLink, up ? 'up' : 'down']);
    },
    close() {
      // The link first, at once (a deleted namespace frees its links only later, in the kernel's own time).
      closing ??= ip(['link', 'delete', hostLink])
        .catch(() => undefined)
        .then(() => ip(['netns', 'delete', namespace]));
      return closing;
    },
  };
}

// The network rule of edited code's processes: in racelab's own nftables table, one output
// chain per server (named after its pid and start), whose rules apply only to packets of that
// server's block of uids (processUids.ts) and let them reach the stores' addresses and ports
// alone; anything else is rejected (a TCP reset, so a connect fails at once with
// ECONNREFUSED, not after a timeout). The allowed endpoints are two sets of the chain's, grown
// as runs name stores (a lab's nodes). Each server writes only its own chain and sets, so
// servers on one machine never undo each other's; a chain whose server no longer runs is
// deleted by the next server's start. The table itself stays: empty, it matches nothing, and
// deleting it could race another server that is adding its chain.
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { THIS_PROCESS } from '../debris/runRegistry.js';
import { isSameProcess } from '../services/pids.js';

/** racelab's table: nothing else writes in it. */
export const FIREWALL_TABLE = 'racelab_exercises';
const CHAIN = /^server_(\d+)_(\d+|x)$/;

/** One address and port edited code may reach. */
export interface Endpoint {
  host: string;
  port: number;
}

/** A server's chain, installed: grow what it allows, remove it. */
export interface Firewall {
  /** This server's chain's name. */
  chain: string;
  /** Lets the uids reach these endpoints too (names are looked up now; every address they have). */
  allow(endpoints: Endpoint[]): Promise<void>;
  /** Deletes the chain and its sets; once, however often it is called. */
  remove(): Promise<void>;
}

/** Runs nft with a script on its stdin; throws with nft's own words when it refuses. */
export async function nft(args: string[], script = ''): Promise<string> {
  const child = spawn('nft', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => undefined); // an nft that exits early reports its own failure
  child.stdin.end(script);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`nft ${args.join(' ')} failed: ${stderr.trim() || `exit ${code}`}`);
  return stdout;
}

/** The addresses of an endpoint's host, split by family ("localhost" is 127.0.0.1 and ::1). */
async function addressesOf({ host, port }: Endpoint): Promise<{ v4: string[]; v6: string[] }> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`bad port ${port} for ${host}`);
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const all = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  return {
    v4: all.filter((a) => a.family === 4).map((a) => `${a.address} . ${port}`),
    v6: all.filter((a) => a.family === 6).map((a) => `${a.address} . ${port}`),
  };
}

/** The script that (re)makes a server's chain for this range of uids, with nothing allowed yet. */
export function chainScript(chain: string, uids: { first: number; last: number }): string[] {
  const t = `inet ${FIREWALL_TABLE}`;
  const who = `meta skuid ${uids.first}-${uids.last}`;
  return [
    `add table ${t}`,
    `add set ${t} ${chain}_v4 { type ipv4_addr . inet_service; }`,
    `add set ${t} ${chain}_v6 { type ipv6_addr . inet_service; }`,
    `add chain ${t} ${chain} { type filter hook output priority 0; policy accept; }`,
    // A chain of a dead server whose pid and start this one has (a clock reset): made anew.
    `flush chain ${t} ${chain}`,
    `flush set ${t} ${chain}_v4`,
    `flush set ${t} ${chain}_v6`,
    // Every rule names the uids: a packet with no socket (the reset a reject sends) matches none.
    `add rule ${t} ${chain} ${who} ip daddr . tcp dport @${chain}_v4 accept`,
    `add rule ${t} ${chain} ${who} ip6 daddr . tcp dport @${chain}_v6 accept`,
    `add rule ${t} ${chain} ${who} meta l4proto tcp reject with tcp reset`,
    `add rule ${t} ${chain} ${who} reject`,
  ];
}

/** Installs this server's chain for its uids; throws when nft refuses. */
export async function installFirewall(uids: { first: number; last: number }): Promise<Firewall> {
  const chain = `server_${THIS_PROCESS.pid}_${THIS_PROCESS.ticks ?? 'x'}`;
  await sweepFirewall();
  await nft(['-f', '-'], `${chainScript(chain, uids).join('\n')}\n`);
  let removing: Promise<void> | undefined;
  const allowed = new Set<string>();
  return {
    chain,
    async allow(endpoints) {
      const found = await Promise.all(endpoints.map(addressesOf));
      const v4 = found.flatMap((f) => f.v4).filter((e) => !allowed.has(`4 ${e}`));
      const v6 = found.flatMap((f) => f.v6).filter((e) => !allowed.has(`6 ${e}`));
      const script = [
        ...(v4.length ? [`add element inet ${FIREWALL_TABLE} ${chain}_v4 { ${v4.join(', ')} }`] : []),
        ...(v6.length ? [`add element inet ${FIREWALL_TABLE} ${chain}_v6 { ${v6.join(', ')} }`] : []),
      ];
      if (script.length === 0) return;
      await nft(['-f', '-'], `${script.join('\n')}\n`);
      for (const e of v4) allowed.add(`4 ${e}`);
      for (const e of v6) allowed.add(`6 ${e}`);
    },
    remove() {
      removing ??= deleteChain(chain);
      return removing;
    },
  };
}

/** The chain and its sets, in one transaction: a chain is never left naming a set that is gone. */
const deleteChain = (chain: string): Promise<void> =>
  nft(
    ['-f', '-'],
    [
      `delete chain inet ${FIREWALL_TABLE} ${chain}`,
      `delete set inet ${FIREWALL_TABLE} ${chain}_v4`,
      `delete set inet ${FIREWALL_TABLE} ${chain}_v6`,
    ]
      .map((line) => `${line}\n`)
      .join(''),
  ).then(() => undefined);

/** The chains in racelab's table; none when there is no table. */
export async function firewallChains(): Promise<string[]> {
  const listing = await nft(['list', 'table', 'inet', FIREWALL_TABLE]).catch(() => '');
  return [...listing.matchAll(/^\s*chain (\S+) \{/gm)].map((m) => m[1]!);
}

/** Deletes the chains of servers that no longer run; returns their names. */
export async function sweepFirewall(): Promise<string[]> {
  const swept: string[] = [];
  for (const chain of await firewallChains()) {
    const owner = CHAIN.exec(chain);
    if (!owner || isSameProcess(Number(owner[1]), owner[2] === 'x' ? null : owner[2]!)) continue;
    try {
      await deleteChain(chain);
      swept.push(chain);
    } catch {
      // Deleted meanwhile by another server's start.
    }
  }
  return swept;
}

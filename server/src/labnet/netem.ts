// A slow lab node in the kernel, where it has netem (tc-netem(8)): the traffic between one lab
// host and one port of the host's link (a lab Redis node) is delayed, and lost, each way, on
// the two ends of the host's veth link. A qdisc acts on what leaves a device, so the host's
// traffic to the node is delayed as it leaves the namespace (`lab0`, matched by destination
// address and port) and the node's answers as they leave the host (the host end, matched by
// source address and port). Each end gets a prio qdisc with a band of its own per node
// (bands 4 … 3 + nodes; the default priomap sends every other packet to bands 1 … 3, so
// nothing else is ever delayed); a node's band holds its netem qdisc, and a u32 filter of its
// own (its priority is the band's number) sends the node's packets there. Restoring the node
// deletes its two filters: its packets go back to the default bands, and the netem qdisc,
// which no packet reaches any more, stays until the next slow replaces it. Everything goes
// with the link when the run deletes it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Slowdown } from './delayRelay.js';

const run = promisify(execFile);

/** The link of a lab host, as the commands need it. */
export interface NetemLink {
  namespace: string;
  /** The host end of the veth pair. */
  hostLink: string;
  /** The host end's address, where the lab's nodes listen for this host. */
  hostAddress: string;
}

/** The device inside every lab host's namespace (labHost.ts). */
const INNER_LINK = 'lab0';
/** The default bands of prio (1 … 3), which carry whatever no filter picks. */
const DEFAULT_BANDS = 3;

/** The bands a link needs for `nodes` lab nodes: one each after the default three. */
const bandsFor = (nodes: number): number => DEFAULT_BANDS + nodes;

/** netem's words for a slowdown: its delay, and its loss when there is one. */
export function netemParameters(slowdown: Slowdown): string[] {
  return ['delay', `${slowdown.latencyMs}ms`, ...(slowdown.lossPercent > 0 ? ['loss', `${slowdown.lossPercent}%`] : [])];
}

/** `tc` in the lab host's namespace (`inside`) or on the host. */
const tc = (link: NetemLink, inside: boolean, args: string[]): string[] =>
  inside ? ['tc', '-n', link.namespace, ...args] : ['tc', ...args];

/** The two ends of the link, each with what a filter there matches: the node's traffic leaving that end. */
const ends = (link: NetemLink, port: number) => [
  {
    inside: true,
    device: INNER_LINK,
    match: ['match', 'ip', 'dst', `${link.hostAddress}/32`, 'match', 'ip', 'dport', String(port), '0xffff'],
  },
  {
    inside: false,
    device: link.hostLink,
    match: ['match', 'ip', 'src', `${link.hostAddress}/32`, 'match', 'ip', 'sport', String(port), '0xffff'],
  },
];

/** The commands that give a link's two ends their prio qdisc, with a band for each of `nodes` nodes: once per link, before its first slow. */
export function netemRootCommands(link: NetemLink, nodes: number): string[][] {
  return ends(link, 0).map(({ inside, device }) =>
    tc(link, inside, ['qdisc', 'add', 'dev', device, 'root', 'handle', '1:', 'prio', 'bands', String(bandsFor(nodes))]),
  );
}

/** The commands that slow node `index` (0-based; its port `port`) on this link: its band's netem qdisc, then its filter. */
export function netemSlowCommands(link: NetemLink, index: number, port: number, slowdown: Slowdown): string[][] {
  const band = DEFAULT_BANDS + 1 + index;
  return ends(link, port).flatMap(({ inside, device, match }) => [
    tc(link, inside, [
      'qdisc',
      'replace',
      'dev',
      device,
      'parent',
      `1:${band}`,
      'handle',
      `${band}0:`,
      'netem',
      ...netemParameters(slowdown),
    ]),
    tc(link, inside, [
      'filter',
      'add',
      'dev',
      device,
      'parent',
      '1:',
      'protocol',
      'ip',
      'prio',
      String(band),
      'u32',
      ...match,
      'flowid',
      `1:${band}`,
    ]),
  ]);
}

/** The commands that restore node `index` on this link: its filters go, so its packets pass by the default bands again. */
export function netemRestoreCommands(link: NetemLink, index: number): string[][] {
  const band = DEFAULT_BANDS + 1 + index;
  return ends(link, 0).map(({ inside, device }) =>
    tc(link, inside, ['filter', 'del', 'dev', device, 'parent', '1:', 'protocol', 'ip', 'prio', String(band)]),
  );
}

/** Runs command lines one after the other; throws with the first failure's own words. */
export async function runNetemCommands(commands: string[][]): Promise<void> {
  for (const [command, ...args] of commands) {
    try {
      await run(command!, args, { timeout: 5000 });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new Error(`${[command, ...args].join(' ')} failed: ${stderr || (error instanceof Error ? error.message : String(error))}`);
    }
  }
}

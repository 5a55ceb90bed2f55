// A lab cluster whose start fails part-way stops what it had started at once: its five
// redis-servers and the relays on the workers' links, not at the server's exit. Here the
// failure is the last step of a start, a partition the kernel refuses: the worker's host is a
// stand-in on a loopback address of its own (no namespace, no root needed) whose drop fails.
import { readdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import type { DropRule, LabHost } from '../../labnet/labHost.js';
import { detectLabMechanisms } from '../../labnet/mechanisms.js';
import { startCluster } from './cluster.js';

/** This process's children that are redis-servers, by pid. */
function redisChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm.startsWith('redis-server')) pids.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return pids;
}

/** Listening sockets of this process (the relays listen in it). */
const listening = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

/** A worker's host that is only an address: whatever the kernel is asked of it fails. */
function standInHost(name: string, hostAddress: string): LabHost {
  const refused = (): Promise<never> => Promise.reject(new Error(`${name}: no kernel here`));
  return {
    name,
    namespace: `stand-in-${name}`,
    hostAddress,
    address: hostAddress,
    hostLink: 'none',
    wrap: (argv) => argv,
    drop: (): Promise<DropRule> => refused(),
    dropFrom: refused,
    setLink: refused,
    close: () => Promise.resolve(),
  };
}

it.runIf(process.platform === 'linux')(
  'a start that fails part-way stops the nodes and relays it had started, at once',
  async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const stores = {
      redis,
      key: (name: string) => `racelab-test:cluster-start:${name}`,
      sql: () => Promise.reject(new Error('no SQL here')),
    };
    const before = { nodes: redisChildren(), listening: listening() };
    let nodesMidway: number[] = [];
    // The kernel's split, as where nft works; netem, so that no delay relay is asked for.
    const mechanisms = { ...detectLabMechanisms(), nftables: true, netem: () => Promise.resolve(true) };
    const host = standInHost('worker-1', '127.0.0.2');
    const failingDrop = host.drop;
    host.drop = (...args) => {
      // The nodes and the link's relays are up by now: the split is the start's last step.
      nodesMidway = redisChildren();
      return failingDrop(...args);
    };
    try {
      await expect(
        startCluster(stores, {
          reach: 'split',
          workerIds: ['worker-1'],
          hosts: { 'worker-1': host },
          clockJumpMs: 0,
          lockKey: 'lock:document',
          mechanisms,
        }),
      ).rejects.toThrow('worker-1: no kernel here');
    } finally {
      redis.disconnect();
    }
    expect(nodesMidway.filter((pid) => !before.nodes.includes(pid))).toHaveLength(5);
    expect({ nodes: redisChildren(), listening: listening() }).toEqual(before);
  },
  30_000,
);

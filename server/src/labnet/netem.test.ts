// The command lines a slow node runs where the kernel has netem. This kernel has none, so the
// commands are held to what tc-netem(8), tc-prio(8) and tc-u32(8) say, word by word.
import { describe, expect, it } from 'vitest';
import { netemParameters, netemRestoreCommands, netemRootCommands, netemSlowCommands } from './netem.js';

const link = { namespace: 'racelab-1-2-0', hostLink: 'rlab1', hostAddress: '10.213.0.5' };

describe('netem on a lab link', () => {
  it('gives each end a prio qdisc with a band per node after the default three', () => {
    expect(netemRootCommands(link, 5)).toEqual([
      ['tc', '-n', 'racelab-1-2-0', 'qdisc', 'add', 'dev', 'lab0', 'root', 'handle', '1:', 'prio', 'bands', '8'],
      ['tc', 'qdisc', 'add', 'dev', 'rlab1', 'root', 'handle', '1:', 'prio', 'bands', '8'],
    ]);
  });

  it("slows node-3: the worker's packets to its port as they leave the namespace, the node's to the worker as they leave the host", () => {
    // Each command line as typed (the arguments are split on spaces).
    expect(netemSlowCommands(link, 2, 40001, { latencyMs: 300, lossPercent: 5 }).map((argv) => argv.join(' '))).toEqual([
      'tc -n racelab-1-2-0 qdisc replace dev lab0 parent 1:6 handle 60: netem delay 300ms loss 5%',
      'tc -n racelab-1-2-0 filter add dev lab0 parent 1: protocol ip prio 6 u32 match ip dst 10.213.0.5/32 match ip dport 40001 0xffff flowid 1:6',
      'tc qdisc replace dev rlab1 parent 1:6 handle 60: netem delay 300ms loss 5%',
      'tc filter add dev rlab1 parent 1: protocol ip prio 6 u32 match ip src 10.213.0.5/32 match ip sport 40001 0xffff flowid 1:6',
    ]);
  });

  it('says no loss when there is none', () => {
    expect(netemParameters({ latencyMs: 1, lossPercent: 0 })).toEqual(['delay', '1ms']);
    expect(netemParameters({ latencyMs: 5000, lossPercent: 2.5 })).toEqual(['delay', '5000ms', 'loss', '2.5%']);
  });

  it("restores node-3 by deleting its two filters (by their priority, its band's number)", () => {
    expect(netemRestoreCommands(link, 2)).toEqual([
      ['tc', '-n', 'racelab-1-2-0', 'filter', 'del', 'dev', 'lab0', 'parent', '1:', 'protocol', 'ip', 'prio', '6'],
      ['tc', 'filter', 'del', 'dev', 'rlab1', 'parent', '1:', 'protocol', 'ip', 'prio', '6'],
    ]);
  });
});

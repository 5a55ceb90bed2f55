// A lab node isolated and rejoined, slowed and restored, as the page reads the log from the
// events' fields: which nodes are cut and slowed now (the "isolate a node" and "slow a node"
// rows' buttons), the band in each worker's lane from the cut or the slow to its end (or the
// run's end), the verdict's words for the faults a run was struck by, and a plan's slow as URL text.
import { describe, expect, it } from 'vitest';
import type { FaultRule, RunEvent } from '@racelab/shared';
import { runOf as run, type EventBody } from './fixtures/build.js';
import { isolation as staged, linkCut, restore as restored, slowdown, split } from './fixtures/staged.js';
import { deriveLanes } from './lanes.js';
import { isLinkCut, nodeFault, nodesStruck, nodesStruckNow } from './labNodeFaults.js';
import { struckFrom } from './verdict.js';
import { markOf } from './marks.js';
import { formatRule, parseRule, ruleWords } from './faultPlan.js';
import { usedShapes } from '../components/timeline/Legend.js';

const W = ['worker-1', 'worker-2'];
const both = (atMs: number, fault: 'isolation' | 'rejoin', node: string): [number, string, EventBody][] =>
  W.map((w) => [atMs, w, staged(fault, node, w)]);
const slowed = (node: string, w: string): EventBody => slowdown(node, w);
const bothSlow = (atMs: number, make: (node: string, w: string) => EventBody, node: string): [number, string, EventBody][] =>
  W.map((w) => [atMs, w, make(node, w)]);
const cutNow = (events: RunEvent[]) => nodesStruck(events).cut;
const slowedNow = (events: RunEvent[]) => nodesStruck(events).slowed;

describe('isolations and rejoins of lab nodes', () => {
  it('name their node, and whether they cut or rejoin it; other staged faults are none of theirs', () => {
    const [isolation, rejoin, partition, cut] = run(W, [
      [1, 'worker-1', staged('isolation', 'node-4', 'worker-1')],
      [2, 'worker-1', staged('rejoin', 'node-4', 'worker-1')],
      [3, 'worker-1', split('worker-1', 'node-4')],
      [4, 'worker-1', linkCut('worker-1')],
    ]).slice(1);
    expect([isolation, rejoin, partition, cut].map((e) => nodeFault(e!))).toEqual([
      { kind: 'cut', node: 'node-4', on: true, slowWords: null },
      { kind: 'cut', node: 'node-4', on: false, slowWords: null },
      null,
      null,
    ]);
    // A worker's whole link cut is not a split's partition from one node.
    expect([isolation, partition, cut].map((e) => isLinkCut(e!))).toEqual([false, false, true]);
  });

  it('a node is cut from its isolation to its rejoin, and again when isolated again', () => {
    const facts = [...both(100, 'isolation', 'node-4'), ...both(150, 'isolation', 'node-2'), ...both(300, 'rejoin', 'node-4')];
    expect(cutNow(run(W, facts.slice(0, 2), false))).toEqual(['node-4']);
    expect(cutNow(run(W, facts, false))).toEqual(['node-2']);
    expect(cutNow(run(W, [...facts, ...both(400, 'isolation', 'node-4')], false))).toEqual(['node-4', 'node-2']);
    expect(cutNow(run(W, [], false))).toEqual([]);
    // The rows' fold: the same, once per version of the log.
    const log = run(W, facts, false);
    expect(nodesStruckNow(log)).toEqual({ cut: ['node-2'], slowed: [] });
    expect(nodesStruckNow(log)).toBe(nodesStruckNow(log));
    expect(nodesStruckNow(run(W, [...facts, ...both(400, 'isolation', 'node-4')], false)).cut).toEqual(['node-4', 'node-2']);
    expect(nodesStruckNow(run(W, [], false))).toEqual({ cut: [], slowed: [] });
  });

  it("shades each worker's lane from the cut to the rejoin, and marks both with their mechanism", () => {
    const lanes = deriveLanes(run(W, [...both(100, 'isolation', 'node-4'), ...both(300, 'rejoin', 'node-4')]));
    for (const [k, lane] of lanes.entries()) {
      const w = W[k]!;
      expect(lane.spans.map((s) => [s.kind, s.startMs, s.endMs, s.label, s.caption])).toEqual([
        ['cut', 100, 300, `${w} cut from node-4 from 100 ms`, 'node-4 cut'],
      ]);
      expect(lane.spans[0]!.details).toEqual(['isolation: kernel nftables drop', 'rejoined at 300 ms']);
      expect(lane.marks.map((m) => m.label)).toEqual([
        `${w} isolation node-4 from ${w}, by kernel nftables drop at 100 ms`,
        `${w} rejoin node-4 to ${w}, by kernel nftables drop at 300 ms`,
      ]);
    }
    expect(usedShapes(lanes, 0).has('cut')).toBe(true);
    const rejoin = run(W, [[300, 'worker-2', staged('rejoin', 'node-4', 'worker-2', 'proxy')]])[1]!;
    expect(markOf(rejoin, 'worker-2', undefined)?.caption).toBe('rejoin: proxy');
  });

  it('a cut never rejoined is shaded to the live edge while the run goes on, and to its end once it is over', () => {
    const live = run(W, both(100, 'isolation', 'node-4'), false);
    expect(deriveLanes(live)[0]!.spans.map((s) => [s.kind, s.startMs, s.endMs])).toEqual([['cut', 100, null]]);
    const grown: RunEvent[] = [
      ...live,
      { type: 'run-finished', metrics: {}, expectations: [], verdict: 'fail', seq: live.length, atMs: 2000, workerId: null },
    ];
    expect(deriveLanes(grown)[1]!.spans.map((s) => [s.kind, s.startMs, s.endMs])).toEqual([['cut', 100, 2000]]);
    // A split's own partitions are no isolation: nothing is shaded for them.
    const splitOnly = run(W, [[0, 'worker-1', split('worker-1', 'node-4')]]);
    expect(deriveLanes(splitOnly)[0]!.spans).toEqual([]);
    expect(usedShapes(deriveLanes(splitOnly), 0).has('cut')).toBe(false);
  });

  it("the verdict names a node rejoined before the run's end as such, in the place of its first cut", () => {
    const rejoined = run(W, [
      ...both(100, 'isolation', 'node-4'),
      [200, 'worker-2', { type: 'process-paused', plannedMs: null }],
      ...both(300, 'rejoin', 'node-4'),
      ...both(400, 'isolation', 'node-5'),
    ]);
    expect(struckFrom(rejoined)).toEqual(['node-4 isolated, then rejoined', 'worker-2 paused from the page', 'node-5 isolated']);
    const again = run(W, [...both(100, 'isolation', 'node-4'), ...both(300, 'rejoin', 'node-4'), ...both(400, 'isolation', 'node-4')]);
    expect(struckFrom(again)).toEqual(['node-4 isolated']);
  });
});

describe('slows and restores of lab nodes', () => {
  it('name their node, whether they slow or restore it, and what was added', () => {
    const [slow, restore, isolation] = run(W, [
      [1, 'worker-1', slowdown('node-3', 'worker-1', 300, 5)],
      [2, 'worker-1', restored('node-3', 'worker-1')],
      [3, 'worker-1', staged('isolation', 'node-3', 'worker-1', 'proxy')],
    ]).slice(1);
    expect([slow, restore, isolation].map((e) => nodeFault(e!))).toEqual([
      { kind: 'slow', node: 'node-3', on: true, slowWords: 'node-3 +300 ms, 5% lost' },
      { kind: 'slow', node: 'node-3', on: false, slowWords: null },
      { kind: 'cut', node: 'node-3', on: true, slowWords: null },
    ]);
  });

  it('a node is slowed from its slow to its restore, and again when slowed again', () => {
    const facts = [...bothSlow(100, slowed, 'node-3'), ...bothSlow(150, slowed, 'node-5'), ...bothSlow(300, restored, 'node-3')];
    expect(slowedNow(run(W, facts.slice(0, 2), false))).toEqual(['node-3']);
    expect(slowedNow(run(W, facts, false))).toEqual(['node-5']);
    expect(slowedNow(run(W, [...facts, ...bothSlow(400, slowed, 'node-3')], false))).toEqual(['node-3', 'node-5']);
    // Cut and slowed are told apart, node by node.
    expect(nodesStruck(run(W, [...facts, ...both(400, 'isolation', 'node-3')], false))).toEqual({ cut: ['node-3'], slowed: ['node-5'] });
  });

  it("draws a band of its own in each worker's lane, captioned with what was added, from the slow to the restore", () => {
    const lanes = deriveLanes(run(W, [...bothSlow(100, slowed, 'node-3'), ...bothSlow(300, restored, 'node-3')]));
    for (const [k, lane] of lanes.entries()) {
      const w = W[k]!;
      expect(lane.spans.map((s) => [s.kind, s.startMs, s.endMs, s.label, s.caption])).toEqual([
        ['slow', 100, 300, `${w}'s traffic with node-3 slowed from 100 ms`, 'node-3 +300 ms'],
      ]);
      expect(lane.spans[0]!.details).toEqual(['node-3 +300 ms, each way: proxy delay', 'restored at 300 ms']);
    }
    expect(usedShapes(lanes, 0).has('slow')).toBe(true);
    expect(usedShapes(lanes, 0).has('cut')).toBe(false);
    // Never restored: drawn to the live edge.
    expect(deriveLanes(run(W, bothSlow(100, slowed, 'node-3'), false))[0]!.spans.map((s) => [s.kind, s.endMs])).toEqual([['slow', null]]);
  });

  it('the verdict names a node slowed, and one restored before the end as such', () => {
    expect(
      struckFrom(run(W, [...bothSlow(100, slowed, 'node-3'), ...bothSlow(200, restored, 'node-3'), ...bothSlow(300, slowed, 'node-4')])),
    ).toEqual(['node-3 slowed, then restored', 'node-4 slowed']);
  });
});

describe("a plan's slow as URL text", () => {
  const rules: FaultRule[] = [
    { checkpoint: 'after-grant', target: 'worker-1', action: 'slow', node: 'node-3', latencyMs: 300 },
    { checkpoint: 'after-grant', target: 'worker-1', action: 'slow', node: 'node-3', latencyMs: 300, lossPercent: 5 },
    { checkpoint: 'after-grant', target: 'first', action: 'slow', node: 'node-3', latencyMs: 2000, ms: 500 },
    { checkpoint: 'after-grant', target: 'first', action: 'slow', node: 'node-3', latencyMs: 1, lossPercent: 2.5, ms: 500 },
  ];
  it('goes there and back', () => {
    expect(rules.map(formatRule)).toEqual([
      'after-grant:worker-1:slow:node-3:300',
      'after-grant:worker-1:slow:node-3:300:5',
      'after-grant:first:slow:node-3:2000:0:500',
      'after-grant:first:slow:node-3:1:2.5:500',
    ]);
    expect(rules.map(formatRule).map(parseRule)).toEqual(rules);
  });

  it('refuses a slow without its latency, or out of bounds', () => {
    for (const text of [
      'a:first:slow:node-3',
      'a:first:slow:node-3:0',
      'a:first:slow:node-3:5001',
      'a:first:slow:node-3:300:51',
      'a:first:slow:node-3:300:x',
    ])
      expect(parseRule(text)).toBeNull();
  });

  it('says what it does in words', () => {
    expect(ruleWords(rules[1]!)).toBe(
      "node-3 is slowed by 300 ms each way, 5% lost for every worker (to the run's end) once worker-1 reaches after-grant",
    );
    expect(ruleWords(rules[2]!)).toBe(
      'node-3 is slowed by 2000 ms each way for every worker (500 ms, then it is restored) once a worker reaches after-grant',
    );
  });
});

// A lab node isolated and rejoined, as the page reads the log: which nodes are cut now (the
// "isolate a node" row's buttons), the band in each worker's lane from the cut to its
// rejoin (or the run's end), and the verdict's words for the faults a run was struck by.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { runOf as run, type EventBody } from './fixtures/build.js';
import { deriveLanes } from './lanes.js';
import { nodeFault, nodesCut, nodesCutKey } from './isolations.js';
import { struckFrom } from './verdict.js';
import { markOf } from './marks.js';
import { usedShapes } from '../components/timeline/Legend.js';

const W = ['worker-1', 'worker-2'];
const staged = (fault: 'isolation' | 'rejoin', node: string, w: string, mechanism = 'kernel nftables drop'): EventBody => ({
  type: 'fault-staged',
  fault,
  target: `${node} ${fault === 'isolation' ? 'from' : 'to'} ${w}`,
  mechanism,
});
const both = (atMs: number, fault: 'isolation' | 'rejoin', node: string): [number, string, EventBody][] =>
  W.map((w) => [atMs, w, staged(fault, node, w)]);

describe('isolations and rejoins of lab nodes', () => {
  it('name their node, and whether they cut or rejoin it; other staged faults are none of theirs', () => {
    const [isolation, rejoin, split] = run(W, [
      [1, 'worker-1', staged('isolation', 'node-4', 'worker-1')],
      [2, 'worker-1', staged('rejoin', 'node-4', 'worker-1')],
      [3, 'worker-1', { type: 'fault-staged', fault: 'partition', target: 'worker-1 ↔ node-4', mechanism: 'proxy' }],
    ]).slice(1);
    expect([isolation, rejoin, split].map((e) => nodeFault(e!))).toEqual([
      { node: 'node-4', cut: true },
      { node: 'node-4', cut: false },
      null,
    ]);
  });

  it('a node is cut from its isolation to its rejoin, and again when isolated again', () => {
    const facts = [...both(100, 'isolation', 'node-4'), ...both(150, 'isolation', 'node-2'), ...both(300, 'rejoin', 'node-4')];
    expect(nodesCut(run(W, facts.slice(0, 2), false))).toEqual(['node-4']);
    expect(nodesCut(run(W, facts, false))).toEqual(['node-2']);
    expect(nodesCut(run(W, [...facts, ...both(400, 'isolation', 'node-4')], false))).toEqual(['node-4', 'node-2']);
    expect(nodesCut(run(W, [], false))).toEqual([]);
    // The row's selector: the same words, once per version of the log.
    const log = run(W, facts, false);
    expect(nodesCutKey(log)).toBe('node-2');
    expect(nodesCutKey(run(W, [...facts, ...both(400, 'isolation', 'node-4')], false))).toBe('node-4 node-2');
    expect(nodesCutKey(run(W, [], false))).toBe('');
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
    const split = run(W, [[0, 'worker-1', { type: 'fault-staged', fault: 'partition', target: 'worker-1 ↔ node-4', mechanism: 'proxy' }]]);
    expect(deriveLanes(split)[0]!.spans).toEqual([]);
    expect(usedShapes(deriveLanes(split), 0).has('cut')).toBe(false);
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

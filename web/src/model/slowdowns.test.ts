// A lab node slowed and restored, as the page reads the log: which nodes are slowed now (the
// "slow a node" row's buttons), the band in each worker's lane with its caption from the slow
// to its restore (or the run's end), the verdict's words, and a plan's slow as URL text.
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '@racelab/shared';
import { runOf as run, type EventBody } from './fixtures/build.js';
import { deriveLanes } from './lanes.js';
import { nodeSlowdown, nodesSlowed, nodesSlowedKey } from './slowdowns.js';
import { struckFrom } from './verdict.js';
import { formatRule, parseRule, ruleWords } from './faultPlan.js';
import { usedShapes } from '../components/timeline/Legend.js';

const W = ['worker-1', 'worker-2'];
const slowed = (node: string, w: string, words = '+300 ms'): EventBody => ({
  type: 'fault-staged',
  fault: 'slowdown',
  target: `${node} ${words} for ${w}`,
  mechanism: 'proxy delay',
});
const restored = (node: string, w: string): EventBody => ({
  type: 'fault-staged',
  fault: 'slowdown-ended',
  target: `${node} at full speed for ${w}`,
  mechanism: 'proxy delay',
});
const both = (atMs: number, make: (node: string, w: string) => EventBody, node: string): [number, string, EventBody][] =>
  W.map((w) => [atMs, w, make(node, w)]);

describe('slows and restores of lab nodes', () => {
  it('name their node, whether they slow or restore it, and what was added; other staged faults are none of theirs', () => {
    const [slow, restore, isolation] = run(W, [
      [1, 'worker-1', slowed('node-3', 'worker-1', '+300 ms, 5% lost')],
      [2, 'worker-1', restored('node-3', 'worker-1')],
      [3, 'worker-1', { type: 'fault-staged', fault: 'isolation', target: 'node-3 from worker-1', mechanism: 'proxy' }],
    ]).slice(1);
    expect([slow, restore, isolation].map((e) => nodeSlowdown(e!))).toEqual([
      { node: 'node-3', slowed: true, words: 'node-3 +300 ms, 5% lost' },
      { node: 'node-3', slowed: false, words: 'node-3 at full speed' },
      null,
    ]);
  });

  it('a node is slowed from its slow to its restore, and again when slowed again', () => {
    const facts = [...both(100, slowed, 'node-3'), ...both(150, slowed, 'node-5'), ...both(300, restored, 'node-3')];
    expect(nodesSlowed(run(W, facts.slice(0, 2), false))).toEqual(['node-3']);
    expect(nodesSlowed(run(W, facts, false))).toEqual(['node-5']);
    expect(nodesSlowedKey(run(W, [...facts, ...both(400, slowed, 'node-3')], false))).toBe('node-3 node-5');
    expect(nodesSlowedKey(run(W, [], false))).toBe('');
  });

  it("draws a band of its own in each worker's lane, captioned with what was added, from the slow to the restore", () => {
    const lanes = deriveLanes(run(W, [...both(100, slowed, 'node-3'), ...both(300, restored, 'node-3')]));
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
    expect(deriveLanes(run(W, both(100, slowed, 'node-3'), false))[0]!.spans.map((s) => [s.kind, s.endMs])).toEqual([['slow', null]]);
  });

  it('the verdict names a node slowed, and one restored before the end as such', () => {
    expect(struckFrom(run(W, [...both(100, slowed, 'node-3'), ...both(200, restored, 'node-3'), ...both(300, slowed, 'node-4')]))).toEqual([
      'node-3 slowed, then restored',
      'node-4 slowed',
    ]);
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

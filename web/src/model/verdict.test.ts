import { describe, expect, it } from 'vitest';
import { blindDelRun } from './fixtures/blindDelRun.js';
import type { EventOf } from '@racelab/shared';
import { LogBuilder, type EventBody } from './fixtures/build.js';
import { isolation, linkCut, split } from './fixtures/staged.js';
import { duplicateJobManifest } from './fixtures/manifest.js';
import { noLockRun } from './fixtures/noLockRun.js';
import { tokenLuaRun } from './fixtures/tokenLuaRun.js';
import { deriveVerdict, headlineOf, struckFrom } from './verdict.js';

describe('deriveVerdict', () => {
  it('writes each expectation in numbers with the manifest’s label', () => {
    const v = deriveVerdict(noLockRun(), duplicateJobManifest);
    if (v.state !== 'finished') throw new Error(v.state);
    expect(v.pass).toBe(false);
    expect(v.headline).toBe('FAIL — 1 of 2 invariants was broken');
    expect(v.lines.map((l) => [l.text, l.held])).toEqual([
      ['E-mails sent: 3 — should be 1', false],
      ['Lock TTL after run (ms): -2 (no key) — should not be -1 (no expiry)', true],
    ]);
    expect(v.others).toEqual([{ name: 'maxConcurrentHolders', text: 'Max concurrent holders: 0' }]);
  });

  it('says "at most" for lte', () => {
    const v = deriveVerdict(blindDelRun(), duplicateJobManifest);
    if (v.state !== 'finished') throw new Error(v.state);
    expect(v.lines[1]!.text).toBe('Max concurrent holders: 2 — should be at most 1');
    expect(v.headline).toBe('FAIL — 2 of 3 invariants were broken');
  });

  it('says why a verdict is expected here, and warns when a run is not as expected', () => {
    const withExpected = (expectedVerdict: 'pass' | 'fail', expectedReason?: string) =>
      noLockRun().map((e) => (e.type === 'run-finished' ? { ...e, expectedVerdict, ...(expectedReason ? { expectedReason } : {}) } : e));
    const plain = deriveVerdict(withExpected('fail'), duplicateJobManifest);
    if (plain.state !== 'finished') throw new Error(plain.state);
    expect(plain.expectation).toBeUndefined(); // a broken variant failing needs no words
    const why = 'with one worker there is no race to lose';
    const excused = deriveVerdict(withExpected('fail', why), duplicateJobManifest);
    if (excused.state !== 'finished') throw new Error(excused.state);
    expect(excused.expectation).toEqual({ asExpected: true, text: `Expected here: ${why}` });
    const wrong = deriveVerdict(withExpected('pass', why), duplicateJobManifest);
    if (wrong.state !== 'finished') throw new Error(wrong.state);
    expect(wrong.expectation?.asExpected).toBe(false);
    expect(wrong.expectation?.text).toMatch(
      /^NOT as expected: this run should give PASS here \(with one worker there is no race to lose\)/,
    );
  });

  it('passes a correct run', () => {
    const v = deriveVerdict(tokenLuaRun(), duplicateJobManifest);
    if (v.state !== 'finished') throw new Error(v.state);
    expect(v.headline).toBe('PASS — the invariant held');
    expect(v.lines[0]!.text).toBe('E-mails sent: 1 — should be 1');
  });

  it('names the faults a run was struck by beyond its parameters, instead of calling the difference a bug', () => {
    const struck = (facts: [number, string | null, EventBody][], plan: EventOf<'run-started'>['faults'] = []) => {
      const b = new LogBuilder().at(0, null, {
        type: 'run-started',
        scenario: 'redlock',
        variant: 'redlock',
        correct: false,
        params: {},
        workers: [],
        faults: plan,
      });
      for (const [atMs, w, body] of facts) b.at(atMs, w, body);
      b.at(3000, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'fail', expectedVerdict: 'pass' });
      return b.build();
    };
    const cut = linkCut('worker-1');
    const log = struck([
      [100, 'worker-1', cut],
      [200, 'worker-2', { type: 'process-paused', plannedMs: null }],
      [300, 'worker-2', { type: 'process-paused', plannedMs: 500 }], // planned: the expectation counts it
      [400, 'worker-2', split('worker-2', 'node-1')], // the scenario's own split
      [450, 'worker-1', isolation('isolation', 'node-4', 'worker-1', 'proxy')],
      [450, 'worker-2', isolation('isolation', 'node-4', 'worker-2', 'proxy')],
      [500, 'worker-3', { type: 'process-killed', signal: 'SIGKILL' }],
    ]);
    expect(struckFrom(log)).toEqual([
      "worker-1's link cut",
      'worker-2 paused from the page',
      'node-4 isolated',
      'worker-3 killed from the page',
    ]);
    const v = deriveVerdict(log, duplicateJobManifest);
    if (v.state !== 'finished') throw new Error(v.state);
    expect(v.expectation).toEqual({
      asExpected: false,
      text: "NOT as expected: this run should give PASS. Its parameters alone give that; it was also struck by faults they do not include (worker-1's link cut, worker-2 paused from the page, node-4 isolated, worker-3 killed from the page).",
    });
    // A kill the plan asked for is the plan's; with nothing else, a differing verdict is a bug.
    const planned = struck(
      [[500, 'worker-3', { type: 'process-killed', signal: 'SIGKILL' }]],
      [{ checkpoint: 'c', target: 'first', action: 'kill' }],
    );
    expect(struckFrom(planned)).toEqual([]);
    const bug = deriveVerdict(planned, duplicateJobManifest);
    if (bug.state !== 'finished') throw new Error(bug.state);
    expect(bug.expectation?.text).toMatch(/A verdict that differs is a bug in racelab/);
  });

  it('shows a failed run’s message, and a running run', () => {
    const b = new LogBuilder().at(0, null, {
      type: 'run-started',
      scenario: 'duplicate-job',
      variant: 'no-lock',
      correct: false,
      params: {},
      workers: [],
    });
    expect(deriveVerdict(b.build(), duplicateJobManifest)).toEqual({ state: 'running' });
    b.at(5, null, { type: 'run-failed', message: 'Redis is not reachable' });
    expect(deriveVerdict(b.build(), duplicateJobManifest)).toEqual({ state: 'failed', message: 'Redis is not reachable' });
    expect(deriveVerdict([], undefined)).toEqual({ state: 'empty' });
  });

  it('falls back to the metric name without a manifest', () => {
    const v = deriveVerdict(noLockRun(), undefined);
    if (v.state !== 'finished') throw new Error(v.state);
    expect(v.lines[0]!.text).toBe('emailsSent: 3 — should be 1');
  });

  it('uses the plain headline for a single invariant', () => {
    expect(headlineOf(false, 1, 1)).toBe('FAIL — the invariant was broken');
    expect(headlineOf(true, 3, 0)).toBe('PASS — all 3 invariants held');
  });
});

import { describe, expect, it } from 'vitest';
import { judge, metricText, shouldBe, verdictLine, type Expectation } from './verdict.js';

const one: Expectation = { id: 'one-email', metric: 'emailsSent', op: 'eq', value: 1, text: '' };
const notStuck: Expectation = { id: 'no-stuck', metric: 'ttl', op: 'ne', value: -1, text: '' };
const atMostOne: Expectation = { id: 'one', metric: 'holders', op: 'lte', value: 1, text: '' };

describe('judge', () => {
  it('passes only when every expectation holds', () => {
    expect(judge([one, notStuck, atMostOne], { emailsSent: 1, ttl: -2, holders: 0 }).verdict).toBe('pass');
    const failed = judge([one, notStuck, atMostOne], { emailsSent: 3, ttl: -1, holders: 2 });
    expect(failed.verdict).toBe('fail');
    expect(failed.results.map((r) => r.held)).toEqual([false, false, false]);
  });

  it('fails a metric that was never measured', () => {
    expect(judge([one], {}).verdict).toBe('fail');
  });

  it('words what a metric should be', () => {
    expect([one, notStuck, atMostOne].map((e) => shouldBe(e))).toEqual(['should be 1', 'should not be -1', 'should be at most 1']);
  });

  it('says what a code means where the metric names it, on both sides of the line', () => {
    const ttl = { label: 'Lock TTL after run (ms)', meanings: { '-2': 'no key', '-1': 'no expiry' } };
    expect(verdictLine({ ...notStuck, actual: -2 }, ttl)).toBe('Lock TTL after run (ms): -2 (no key) — should not be -1 (no expiry)');
    expect(verdictLine({ ...notStuck, actual: 5000 }, ttl)).toBe('Lock TTL after run (ms): 5000 — should not be -1 (no expiry)');
    expect(verdictLine({ ...one, actual: 3 }, { label: 'E-mails sent' })).toBe('E-mails sent: 3 — should be 1');
    expect(verdictLine({ ...one, actual: undefined }, undefined)).toBe('emailsSent: not measured — should be 1');
  });

  it('says so of a figure that only a worker can give', () => {
    expect(metricText({ label: 'Max concurrent holders', reported: true }, 'maxConcurrentHolders', 2)).toBe(
      'Max concurrent holders: 2 (reported by a worker)',
    );
    expect(metricText({ label: 'Max concurrent holders' }, 'maxConcurrentHolders', 2)).toBe('Max concurrent holders: 2');
  });
});

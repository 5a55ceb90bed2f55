// A lock key's history read from a run's log: how each hold went is Redis's word (its keyspace
// notifications), whose it was and whose release removed one the workers' reports.
import { describe, expect, it } from 'vitest';
import { lockLog, naiveStallLog, tokenStallLog } from '../testing/lockLogs.js';
import { foreignRemovals, holdsOf, lockHistory } from './lockHistory.js';

const KEY = 'lock:nightly-report';

describe("a lock key's history", () => {
  it('tells each hold from the next by the gap between them, even when every holder stores the same value', () => {
    expect(holdsOf(naiveStallLog(KEY), [KEY]).map((h) => [h.owner, h.end])).toEqual([
      ['worker-1', 'expired'],
      ['worker-2', 'deleted'],
      ['worker-3', 'deleted'],
    ]);
  });

  it("finds the stale holder's release that removed a lock held by another, whatever order its report and Redis's word arrived in", () => {
    const history = lockHistory(naiveStallLog(KEY), [KEY]);
    expect(foreignRemovals(history)).toBe(1);
    // Redis deleted worker-2's and worker-3's holds; worker-1's and worker-2's releases each removed one: one was not theirs.
    expect(history.foreign).toEqual({ lost: { 'worker-3': 1 }, removedBy: { 'worker-1': 1 }, stale: ['worker-1'] });
    expect(history.endsKnown && history.ownersKnown).toBe(true);
  });

  it("finds none where each DEL was its own holder's: the stale release removed nothing", () => {
    const history = lockHistory(tokenStallLog(KEY), [KEY]);
    expect(history.holds.map((h) => h.end)).toEqual(['expired', 'deleted']);
    expect(foreignRemovals(history)).toBe(0);
  });

  it("takes Redis's word over a release's: a lease that ran out between the release's two reads was removed by nobody", () => {
    const ranOut = lockLog(KEY, [
      { acquired: 'worker-1' },
      { seen: 'token-1' },
      { seen: null, gone: 'expired' },
      { released: 'worker-1', deleted: 1 }, // its read before found the token, its read after none
    ]);
    const history = lockHistory(ranOut, [KEY]);
    expect(history.holds.map((h) => h.end)).toEqual(['expired']);
    expect(foreignRemovals(history)).toBe(0);
  });

  it('counts no removal where a holder died before it could report its own release', () => {
    const killed = lockLog(KEY, [
      { acquired: 'worker-1' },
      { seen: 'token-1' },
      { seen: null, gone: 'deleted' }, // worker-1's own compare-and-delete; it is killed before its report
    ]);
    const history = lockHistory(killed, [KEY]);
    expect(history.foreign.lost).toEqual({ 'worker-1': 1 });
    expect(foreignRemovals(history)).toBe(0);
  });

  it('says when Redis did not tell how a hold went, and when the grants reported are not the holds Redis had', () => {
    expect(lockHistory(naiveStallLog(KEY, false), [KEY]).endsKnown).toBe(false);
    const twoReports = lockLog(KEY, [{ acquired: 'worker-1' }, { acquired: 'worker-2' }, { seen: 'locked' }]);
    const history = lockHistory(twoReports, [KEY]);
    expect(history.ownersKnown).toBe(false);
    expect(history.holds[0]!.owner).toBeUndefined();
  });

  it('reads only the key it is given, by either of its names', () => {
    expect(holdsOf(naiveStallLog('lock:other'), [KEY])).toEqual([]);
    expect(holdsOf(naiveStallLog('lib:lock:nightly-report'), [KEY, 'lib:lock:nightly-report'])).toHaveLength(3);
  });

  it('counts a value written over another as the end of its hold', () => {
    const over = lockLog(KEY, [{ acquired: 'worker-1' }, { seen: 'a' }, { acquired: 'worker-2' }, { seen: 'b' }]);
    expect(holdsOf(over, [KEY]).map((h) => [h.owner, h.end])).toEqual([
      ['worker-1', 'replaced'],
      ['worker-2', 'held'],
    ]);
  });
});

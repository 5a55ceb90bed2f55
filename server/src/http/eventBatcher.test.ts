// The batching of run events to a page, on a fake clock: what leaves when.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { EventBatcher } from './eventBatcher.js';

const note = (seq: number): RunEvent => ({ type: 'note', seq, atMs: seq, workerId: 'worker-1', text: `#${seq}` });

describe('EventBatcher', () => {
  let clock = 0;
  let sent: { runId: string; seqs: number[]; atMs: number }[];
  let batcher: EventBatcher;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    clock = 1000;
    sent = [];
    batcher = new EventBatcher(
      (runId, events) => sent.push({ runId, seqs: events.map((e) => e.seq), atMs: clock }),
      4,
      () => clock,
    );
  });
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock += 1;
      vi.advanceTimersByTime(1);
    }
  };

  it('sends an event after a quiet spell in the next turn, with the others of that turn', () => {
    batcher.push('a', note(0));
    batcher.push('a', note(1));
    expect(sent).toEqual([]);
    vi.runOnlyPendingTimers(); // the setImmediate
    expect(sent).toEqual([{ runId: 'a', seqs: [0, 1], atMs: 1000 }]);
  });

  it('sends a busy stream at most every gap, each batch whole and in order', () => {
    batcher.push('a', note(0));
    vi.runOnlyPendingTimers();
    for (let seq = 1; seq <= 9; seq++) {
      advance(1);
      batcher.push('a', note(seq));
    }
    advance(4);
    // A timer due at a ms fires before an event of that ms comes in.
    expect(sent.map((s) => s.seqs)).toEqual([[0], [1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    expect(sent.map((s) => s.atMs)).toEqual([1000, 1004, 1008, 1012]);
  });

  it('sends each run its own batch, and everything waiting when asked to flush', () => {
    batcher.push('a', note(0));
    vi.runOnlyPendingTimers();
    advance(1);
    batcher.push('a', note(1));
    batcher.push('b', note(0));
    batcher.flush(); // another message is about to go: the events go first
    expect(sent.slice(1)).toEqual([
      { runId: 'a', seqs: [1], atMs: 1001 },
      { runId: 'b', seqs: [0], atMs: 1001 },
    ]);
    advance(10);
    expect(sent).toHaveLength(3); // the timer that was set sends nothing twice
  });

  it('drops what is waiting once the page has gone', () => {
    batcher.push('a', note(0));
    batcher.close();
    advance(10);
    expect(sent).toEqual([]);
  });
});

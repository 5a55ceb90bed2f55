import { describe, expect, it } from 'vitest';
import { KEPT_MS, TickBoard, type Tick } from './tickBoard.js';

const tick = (seq: number, workerId = 'worker-1', atMs = seq * 10): Tick => ({ seq, atMs, workerId });
const seqs = (ticks: Tick[]) => ticks.map((t) => t.seq);

describe('the tick board', () => {
  it('keeps an event once, whichever socket brought it first, and gives a lane its own in seq order', () => {
    const board = new TickBoard();
    expect(board.add('r', [tick(3), tick(1, 'worker-2'), tick(2)])).toBe(true);
    // The page's socket brings the same events again, and one more.
    expect(board.add('r', [tick(2), tick(3)])).toBe(false);
    expect(board.add('r', [tick(2), tick(4)])).toBe(true);
    expect(seqs(board.lane('r', 'worker-1'))).toEqual([2, 3, 4]);
    expect(seqs(board.lane('r', 'worker-2'))).toEqual([1]);
    expect(board.lane('other', 'worker-1')).toEqual([]);
  });

  it('lets go of what the lanes drew from the log, and takes nothing at or before it again', () => {
    const board = new TickBoard();
    board.add('r', [tick(1), tick(2), tick(3)]);
    expect(board.drawnThrough('r', 2)).toBe(true);
    expect(seqs(board.lane('r', 'worker-1'))).toEqual([3]);
    // The worker's own socket may bring them late.
    expect(board.add('r', [tick(1), tick(2)])).toBe(false);
    expect(board.drawnThrough('r', 1)).toBe(false);
    // Drawn before any tick came: they are not taken when they come.
    expect(board.drawnThrough('s', 5)).toBe(false);
    expect(board.add('s', [tick(4), tick(6)])).toBe(true);
    expect(seqs(board.lane('s', 'worker-1'))).toEqual([6]);
  });

  it('keeps no more than KEPT_MS behind the newest event of a run', () => {
    const board = new TickBoard();
    board.add('r', [tick(1, 'worker-1', 0), tick(2, 'worker-1', 500)]);
    board.add('r', [tick(3, 'worker-1', KEPT_MS + 200)]);
    expect(seqs(board.lane('r', 'worker-1'))).toEqual([2, 3]);
  });

  it('forgets a run for good: a late event does not bring it back', () => {
    const board = new TickBoard();
    board.add('r', [tick(1)]);
    board.forget('r');
    expect(board.lane('r', 'worker-1')).toEqual([]);
    expect(board.add('r', [tick(2)])).toBe(false);
    expect(board.drawnThrough('r', 9)).toBe(false);
    expect(board.lane('r', 'worker-1')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { exitExpected, hasExited, isPaused, moveWorker, type WorkerMove, type WorkerStatus } from './workerStatus.js';

const ALL: WorkerStatus[] = ['working', 'paused', 'leaving', 'leaving-paused', 'exited', 'left'];
const MOVES: WorkerMove[] = ['pause', 'resume', 'leave', 'exit'];
/** Every move of a worker's life, and no other. */
const LIFE = [
  'working pause → paused',
  'working leave → leaving',
  'working exit → exited',
  'paused resume → working',
  'paused leave → leaving-paused',
  'paused exit → exited',
  'leaving pause → leaving-paused',
  'leaving leave → leaving',
  'leaving exit → left',
  'leaving-paused resume → leaving',
  'leaving-paused leave → leaving-paused',
  'leaving-paused exit → left',
  'exited leave → left',
  'left leave → left',
];

const tryMove = (from: WorkerStatus, move: WorkerMove): WorkerStatus | undefined => {
  try {
    return moveWorker(from, move);
  } catch {
    return undefined;
  }
};

describe('worker status', () => {
  it('has exactly the moves of a worker’s life', () => {
    const allowed = ALL.flatMap((from) =>
      MOVES.filter((move) => tryMove(from, move)).map((move) => `${from} ${move} → ${moveWorker(from, move)}`),
    );
    expect(allowed).toEqual(LIFE);
  });

  it('refuses every other move with the move and the status in the message', () => {
    const refused = ALL.flatMap((from) => MOVES.filter((move) => !tryMove(from, move)).map((move) => [from, move] as const));
    expect(refused).toHaveLength(ALL.length * MOVES.length - LIFE.length);
    for (const [from, move] of refused) expect(() => moveWorker(from, move)).toThrow(`a worker cannot ${move} when ${from}`);
  });

  it('says which statuses are exited, paused by the page, and expected to exit', () => {
    expect(ALL.filter(hasExited)).toEqual(['exited', 'left']);
    expect(ALL.filter(isPaused)).toEqual(['paused', 'leaving-paused']);
    expect(ALL.filter(exitExpected)).toEqual(['leaving', 'leaving-paused', 'left']);
  });

  it('keeps a late finish: a worker that exited before its finished arrived left as expected', () => {
    let status: WorkerStatus = 'working';
    for (const move of ['exit', 'leave'] as const) status = moveWorker(status, move);
    expect(status).toBe('left');
    expect(exitExpected(status)).toBe(true);
  });

  it('keeps the page’s pause through a kill: a paused worker the run kills may still be resumed', () => {
    let status: WorkerStatus = 'working';
    for (const move of ['pause', 'leave'] as const) status = moveWorker(status, move);
    expect([status, isPaused(status), exitExpected(status)]).toEqual(['leaving-paused', true, true]);
    expect(moveWorker(status, 'resume')).toBe('leaving');
  });
});

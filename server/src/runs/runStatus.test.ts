import { describe, expect, it } from 'vitest';
import { canMove, isOver, transition, type RunStatus } from './runStatus.js';

const ALL: RunStatus[] = ['prepared', 'starting', 'running', 'ending', 'ended', 'settled'];
/** Every move of the life cycle, and no other. */
const MOVES = [
  'prepared → starting',
  'starting → running',
  'starting → ended',
  'running → ending',
  'running → ended',
  'ending → ended',
  'ended → settled',
];

describe('run status', () => {
  it('has exactly the moves of the life cycle', () => {
    const allowed = ALL.flatMap((from) => ALL.filter((to) => canMove(from, to)).map((to) => `${from} → ${to}`));
    expect(allowed).toEqual(MOVES);
  });

  it('moves along the table', () => {
    let status: RunStatus = 'prepared';
    for (const to of ['starting', 'running', 'ending', 'ended', 'settled'] as const) status = transition(status, to);
    expect(status).toBe('settled');
  });

  it('refuses every other move with the two statuses in the message', () => {
    const refused = ALL.flatMap((from) => ALL.filter((to) => !canMove(from, to)).map((to) => [from, to] as const));
    expect(refused).toHaveLength(ALL.length * ALL.length - MOVES.length);
    for (const [from, to] of refused) expect(() => transition(from, to)).toThrow(`a run cannot go from ${from} to ${to}`);
  });

  it('is over once ended', () => {
    expect(ALL.filter(isOver)).toEqual(['ended', 'settled']);
  });
});

import { describe, expect, it } from 'vitest';
import { firstMark, nextMark, type MarkBox } from './rovingOrder.js';

// Two lanes and a store row; DOM order is not time order (bars before glyphs).
const marks: MarkBox[] = [
  { row: 0, x: 300 }, // 0
  { row: 0, x: 100 }, // 1
  { row: 0, x: 200 }, // 2
  { row: 1, x: 190 }, // 3
  { row: 1, x: 380 }, // 4
  { row: 3, x: 50 }, // 5
];

describe('roving order of the timeline marks', () => {
  it('moves left and right by time within a row, and stays put at its ends', () => {
    expect(nextMark(marks, 1, 'ArrowRight')).toBe(2);
    expect(nextMark(marks, 2, 'ArrowRight')).toBe(0);
    expect(nextMark(marks, 0, 'ArrowRight')).toBe(0);
    expect(nextMark(marks, 2, 'ArrowLeft')).toBe(1);
    expect(nextMark(marks, 1, 'ArrowLeft')).toBe(1);
  });

  it('goes to the first and last of a row with Home and End', () => {
    expect(nextMark(marks, 2, 'Home')).toBe(1);
    expect(nextMark(marks, 2, 'End')).toBe(0);
  });

  it('moves up and down to the nearest mark in time of the next row that has marks', () => {
    expect(nextMark(marks, 2, 'ArrowDown')).toBe(3);
    expect(nextMark(marks, 0, 'ArrowDown')).toBe(4);
    expect(nextMark(marks, 4, 'ArrowDown')).toBe(5);
    expect(nextMark(marks, 5, 'ArrowUp')).toBe(3);
    expect(nextMark(marks, 3, 'ArrowUp')).toBe(2);
    expect(nextMark(marks, 1, 'ArrowUp')).toBe(1);
    expect(nextMark(marks, 5, 'ArrowDown')).toBe(5);
  });

  it('starts a visit on the earliest mark of the first row', () => {
    expect(firstMark(marks)).toBe(1);
    expect(firstMark([])).toBe(-1);
  });
});

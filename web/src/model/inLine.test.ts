import { describe, expect, it } from 'vitest';
import { inLineWords, ordinal } from './inLine.js';

describe('a place in line in words', () => {
  it('says the position as an ordinal', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });

  it('says the wait in whole seconds, never less than one, and in minutes when long', () => {
    expect(inLineWords(4, 6200)).toBe('4th in line, about 6 s');
    expect(inLineWords(1, 0)).toBe('1st in line, about 1 s');
    expect(inLineWords(30, 150_000)).toBe('30th in line, about 3 min');
  });
});

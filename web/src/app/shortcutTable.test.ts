import { describe, expect, it } from 'vitest';
import { matchShortcut, SHORTCUTS } from './shortcutTable.js';

const key = (k: string, code = '', shiftKey = false) => matchShortcut({ key: k, code, shiftKey });

describe('shortcuts', () => {
  it('matches letters, symbols and arrows', () => {
    expect(key('r')).toEqual({ id: 'run' });
    expect(key('N', 'KeyN', true)).toEqual({ id: 'previous-scenario' });
    expect(key('?', 'Slash', true)).toEqual({ id: 'help' });
    expect(key('ArrowLeft')).toEqual({ id: 'pan-left' });
    expect(key('q')).toBeNull();
  });

  it('goes by the physical digit key for workers, shifted or not', () => {
    expect(key('3', 'Digit3')).toEqual({ id: 'pause-worker', worker: 3 });
    expect(key('#', 'Digit3', true)).toEqual({ id: 'kill-worker', worker: 3 });
    expect(key('0', 'Digit0')).toEqual({ id: 'fit' });
  });

  it('steps chapters with the arrows and page keys in presenter mode only', () => {
    const presenting = (k: string) => matchShortcut({ key: k, code: '', shiftKey: false }, { presenter: true });
    expect(presenting('ArrowRight')).toEqual({ id: 'next-chapter' });
    expect(presenting('PageDown')).toEqual({ id: 'next-chapter' });
    expect(presenting('ArrowLeft')).toEqual({ id: 'previous-chapter' });
    expect(presenting('PageUp')).toEqual({ id: 'previous-chapter' });
    expect(presenting('r')).toEqual({ id: 'run' });
    expect(key('ArrowRight')).toEqual({ id: 'pan-right' });
    expect(key('PageDown')).toBeNull();
  });

  it('documents every shortcut it matches', () => {
    const documented = new Set(SHORTCUTS.map((s) => s.id));
    for (const k of [
      'r',
      'c',
      'x',
      ' ',
      's',
      'S',
      'n',
      'N',
      'v',
      'j',
      'k',
      'o',
      '.',
      ',',
      'Escape',
      '+',
      '-',
      'ArrowLeft',
      'ArrowRight',
      'l',
      'p',
      't',
      'h',
      '?',
    ])
      expect(documented.has(key(k)!.id)).toBe(true);
    for (const k of ['ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown'])
      expect(documented.has(matchShortcut({ key: k, code: '', shiftKey: false }, { presenter: true })!.id)).toBe(true);
  });

  it('reads the help table into one entry a shortcut, with its keys and words', () => {
    expect(SHORTCUTS).toHaveLength(29);
    expect(new Set(SHORTCUTS.map((s) => s.id)).size).toBe(29);
    expect(SHORTCUTS.find((s) => s.id === 'next-chapter')).toEqual({
      id: 'next-chapter',
      keys: ['→', 'PageDown'],
      does: 'presenter mode: next chapter (scenario → broken run → correct run)',
      group: 'Present',
    });
    expect(SHORTCUTS.find((s) => s.id === 'replay')?.does).toBe('replay the runs on screen (no server needed); again: pause, go on');
    for (const s of SHORTCUTS) expect(s.keys.every((k) => k.length > 0) && s.does.length > 0).toBe(true);
  });
});

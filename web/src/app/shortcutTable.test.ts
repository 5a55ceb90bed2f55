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

  it('documents every shortcut it matches', () => {
    const documented = new Set(SHORTCUTS.map((s) => s.id));
    for (const k of ['r', 'c', 'x', ' ', 's', 'S', 'n', 'N', 'v', 'j', 'k', 'o', '.', ',', 'Escape', '+', '-', 'ArrowLeft', 'ArrowRight', 'l', 'p', 't', '?'])
      expect(documented.has(key(k)!.id)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { PROGRESS_KEY, progressOf, readProgress, resetProgress, updateProgress, type ProgressStorage } from './progress.js';

/** A Storage over a map; `full` makes every write throw as a full localStorage does. */
function memoryStorage(initial: Record<string, string> = {}, full = false): ProgressStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      if (full) throw new DOMException('quota exceeded', 'QuotaExceededError');
      items.set(key, value);
    },
  };
}

describe('exercise progress in local storage', () => {
  it('remembers edited code, hints opened and solved, per scenario, under one versioned key', () => {
    const storage = memoryStorage();
    updateProgress(storage, 'duplicate-job', { code: 'edited', hintsOpen: 1 }, 'start');
    updateProgress(storage, 'lost-update', { hintsOpen: 2 });
    updateProgress(storage, 'duplicate-job', { solved: true });
    expect(PROGRESS_KEY).toMatch(/\.v\d+$/);
    expect([...storage.items.keys()]).toEqual([PROGRESS_KEY]);
    const progress = readProgress(storage);
    expect(progressOf(progress, 'duplicate-job')).toEqual({ code: 'edited', hintsOpen: 1, solved: true });
    expect(progressOf(progress, 'lost-update')).toEqual({ hintsOpen: 2, solved: false });
    expect(progressOf(progress, 'fencing')).toEqual({ hintsOpen: 0, solved: false });
  });

  it('stores code back at the start as no edit, and keeps a solved exercise solved', () => {
    const storage = memoryStorage();
    updateProgress(storage, 'duplicate-job', { code: 'edited', solved: true }, 'start');
    const back = updateProgress(storage, 'duplicate-job', { code: 'start', solved: false }, 'start');
    expect(back['duplicate-job']).toEqual({ hintsOpen: 0, solved: true });
  });

  it('resets one exercise and keeps the others', () => {
    const storage = memoryStorage();
    updateProgress(storage, 'duplicate-job', { code: 'edited', hintsOpen: 3, solved: true });
    updateProgress(storage, 'fencing', { hintsOpen: 1 });
    expect(resetProgress(storage, 'duplicate-job')).toEqual({ fencing: { hintsOpen: 1, solved: false } });
    expect(readProgress(storage)).toEqual({ fencing: { hintsOpen: 1, solved: false } });
  });

  it('reads corrupt storage as no progress, and drops only the entries that do not read', () => {
    expect(readProgress(memoryStorage({ [PROGRESS_KEY]: '{not json' }))).toEqual({});
    expect(readProgress(memoryStorage({ [PROGRESS_KEY]: '[1,2]' }))).toEqual({});
    expect(readProgress(memoryStorage({ [PROGRESS_KEY]: 'null' }))).toEqual({});
    const mixed = {
      good: { code: 'x', hintsOpen: 2, solved: true },
      old: { hintsOpen: 1 },
      badHints: { hintsOpen: 9 },
      badCode: { code: 42 },
      badSolved: { solved: 'yes' },
      notAnObject: 'hello',
    };
    expect(readProgress(memoryStorage({ [PROGRESS_KEY]: JSON.stringify(mixed) }))).toEqual({
      good: { code: 'x', hintsOpen: 2, solved: true },
      old: { hintsOpen: 1, solved: false },
    });
    // A write over a corrupt key starts again from nothing.
    const corrupt = memoryStorage({ [PROGRESS_KEY]: '{not json' });
    updateProgress(corrupt, 'duplicate-job', { hintsOpen: 1 });
    expect(readProgress(corrupt)).toEqual({ 'duplicate-job': { hintsOpen: 1, solved: false } });
  });

  it('goes on without storage, or with storage that refuses every write', () => {
    expect(updateProgress(null, 'duplicate-job', { hintsOpen: 1 })).toEqual({ 'duplicate-job': { hintsOpen: 1, solved: false } });
    expect(readProgress(null)).toEqual({});
    const full = memoryStorage({}, true);
    expect(() => updateProgress(full, 'duplicate-job', { code: 'x' })).not.toThrow();
    expect(readProgress(full)).toEqual({});
    const throwing: ProgressStorage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => undefined,
    };
    expect(readProgress(throwing)).toEqual({});
  });
});

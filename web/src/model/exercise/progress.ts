// A learner's exercises, remembered in the browser (local storage): per scenario the edited
// code, how many hints are open, and whether a check ever passed every set. One versioned
// key; storage that is missing, full, or holds something else is read as no progress and
// never breaks the page.
import { EXERCISE_MAX_BYTES } from '@racelab/shared';

/** Bump when the shape changes: an older key is left alone, read as no progress. */
export const PROGRESS_KEY = 'racelab.exercises.v1';

export interface ProgressEntry {
  /** The edited code; absent while it is the starting code. */
  code?: string;
  /** How many hints are open, in order (0–3). */
  hintsOpen: number;
  /** A check once passed every set. */
  solved: boolean;
}

/** An entry as stored, or null when it is not one (a field of the wrong kind, a code too long). */
function readEntry(value: unknown): ProgressEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  const { code, hintsOpen = 0, solved = false } = value as Record<string, unknown>;
  if (code !== undefined && (typeof code !== 'string' || code.length > EXERCISE_MAX_BYTES)) return null;
  if (typeof hintsOpen !== 'number' || !Number.isInteger(hintsOpen) || hintsOpen < 0 || hintsOpen > 3) return null;
  if (typeof solved !== 'boolean') return null;
  return code === undefined ? { hintsOpen, solved } : { code, hintsOpen, solved };
}

export type Progress = Record<string, ProgressEntry>;

/** What `Storage` offers that progress needs (the browser's localStorage, or a map in tests). */
export type ProgressStorage = Pick<Storage, 'getItem' | 'setItem'>;

export const NO_PROGRESS: ProgressEntry = { hintsOpen: 0, solved: false };

/** Every exercise's progress; an entry that does not read is dropped, the others kept. */
export function readProgress(storage: ProgressStorage | null): Progress {
  let json: unknown;
  try {
    const text = storage?.getItem(PROGRESS_KEY);
    if (!text) return {};
    json = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return {};
  const out: Progress = {};
  for (const [scenario, value] of Object.entries(json)) {
    const entry = readEntry(value);
    if (entry) out[scenario] = entry;
  }
  return out;
}

/** Writes every exercise's progress; false when the storage refused (full, or off). */
function writeProgress(storage: ProgressStorage | null, progress: Progress): boolean {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify(progress));
    return storage !== null;
  } catch {
    return false;
  }
}

/** One exercise's progress (none yet: the starting code, no hint, not solved). */
export const progressOf = (progress: Progress, scenario: string): ProgressEntry => progress[scenario] ?? NO_PROGRESS;

/**
 * Changes one exercise's progress and stores it; returns the whole progress as now held.
 * `code` equal to `startCode` is stored as no edit. A solved exercise stays solved.
 */
export function updateProgress(
  storage: ProgressStorage | null,
  scenario: string,
  change: Partial<ProgressEntry>,
  startCode?: string,
): Progress {
  const progress = readProgress(storage);
  const before = progressOf(progress, scenario);
  const next: ProgressEntry = { ...before, ...change, solved: before.solved || change.solved === true };
  if (next.code === undefined || next.code === startCode || next.code.length > EXERCISE_MAX_BYTES) delete next.code;
  const all = { ...progress, [scenario]: next };
  writeProgress(storage, all);
  return all;
}

/** Forgets one exercise (its code, hints and solved mark); the others are kept. */
export function resetProgress(storage: ProgressStorage | null, scenario: string): Progress {
  const { [scenario]: _gone, ...rest } = readProgress(storage);
  writeProgress(storage, rest);
  return rest;
}

/** The browser's local storage, or null where it cannot be reached (a sandboxed frame, storage off). */
export function browserStorage(): ProgressStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

// Every keyboard shortcut of the page, in one table: the help dialog (?) lists it and the
// key handler matches against it. Pure: no DOM, no store.

export type ShortcutId =
  | 'run'
  | 'compare'
  | 'cancel'
  | 'next-scenario'
  | 'previous-scenario'
  | 'toggle-variant'
  | 'next-variant'
  | 'previous-variant'
  | 'pause-worker'
  | 'kill-worker'
  | 'step-forward'
  | 'step-back'
  | 'clear-playhead'
  | 'zoom-in'
  | 'zoom-out'
  | 'fit'
  | 'pan-left'
  | 'pan-right'
  | 'follow'
  | 'slower'
  | 'faster'
  | 'replay'
  | 'open-recording'
  | 'presenter'
  | 'next-chapter'
  | 'previous-chapter'
  | 'theme'
  | 'contrast'
  | 'help';

export interface Shortcut {
  id: ShortcutId;
  /** How the keys are written in the help. */
  keys: string[];
  does: string;
  group: 'Run' | 'Choose' | 'Faults' | 'Timeline' | 'Present';
}

export const SHORTCUTS: Shortcut[] = [
  { id: 'run', keys: ['R'], does: 'run the selected variant', group: 'Run' },
  { id: 'compare', keys: ['C'], does: 'run it beside its counterpart (broken above correct)', group: 'Run' },
  { id: 'cancel', keys: ['X'], does: 'cancel the run in progress', group: 'Run' },
  { id: 'replay', keys: ['Space'], does: 'replay the runs on screen (no server needed); again: pause, go on', group: 'Run' },
  { id: 'slower', keys: ['S'], does: 'slower: stretch every sleep and TTL (down to 0.25×)', group: 'Run' },
  { id: 'faster', keys: ['Shift+S'], does: 'faster (up to 2×)', group: 'Run' },
  { id: 'next-scenario', keys: ['N', ']'], does: 'next scenario', group: 'Choose' },
  { id: 'previous-scenario', keys: ['Shift+N', '['], does: 'previous scenario', group: 'Choose' },
  { id: 'toggle-variant', keys: ['V'], does: 'toggle broken ↔ correct variant', group: 'Choose' },
  { id: 'next-variant', keys: ['J'], does: 'next variant', group: 'Choose' },
  { id: 'previous-variant', keys: ['K'], does: 'previous variant', group: 'Choose' },
  { id: 'open-recording', keys: ['O'], does: 'open a recorded run from a file', group: 'Choose' },
  { id: 'pause-worker', keys: ['1…9'], does: 'pause / resume worker n (SIGSTOP / SIGCONT)', group: 'Faults' },
  { id: 'kill-worker', keys: ['Shift+1…9'], does: 'kill worker n (SIGKILL)', group: 'Faults' },
  { id: 'step-forward', keys: ['.'], does: 'step the playhead to the next event', group: 'Timeline' },
  { id: 'step-back', keys: [','], does: 'step the playhead to the previous event', group: 'Timeline' },
  { id: 'clear-playhead', keys: ['Esc'], does: 'clear the playhead (back to live)', group: 'Timeline' },
  { id: 'zoom-in', keys: ['+'], does: 'zoom in (or the wheel over the timeline)', group: 'Timeline' },
  { id: 'zoom-out', keys: ['−'], does: 'zoom out', group: 'Timeline' },
  { id: 'fit', keys: ['0'], does: 'show the whole run', group: 'Timeline' },
  { id: 'pan-left', keys: ['←'], does: 'pan earlier (or drag); in presenter mode: previous chapter', group: 'Timeline' },
  { id: 'pan-right', keys: ['→'], does: 'pan later; in presenter mode: next chapter', group: 'Timeline' },
  { id: 'follow', keys: ['L'], does: 'follow the live edge on / off', group: 'Timeline' },
  { id: 'presenter', keys: ['P'], does: 'presenter mode: the stage only, in large type', group: 'Present' },
  { id: 'next-chapter', keys: ['→', 'PageDown'], does: 'presenter mode: next chapter (scenario → broken run → correct run)', group: 'Present' },
  { id: 'previous-chapter', keys: ['←', 'PageUp'], does: 'presenter mode: previous chapter', group: 'Present' },
  { id: 'theme', keys: ['T'], does: 'light / dark theme', group: 'Present' },
  { id: 'contrast', keys: ['H'], does: 'high contrast, for a washed-out projector', group: 'Present' },
  { id: 'help', keys: ['?'], does: 'show these shortcuts', group: 'Present' },
];

export interface KeyLike {
  key: string;
  code: string;
  shiftKey: boolean;
}

export type Match = { id: ShortcutId; worker?: number };

const plain: Record<string, ShortcutId> = {
  r: 'run',
  c: 'compare',
  x: 'cancel',
  ' ': 'replay',
  s: 'slower',
  S: 'faster',
  n: 'next-scenario',
  ']': 'next-scenario',
  N: 'previous-scenario',
  '[': 'previous-scenario',
  v: 'toggle-variant',
  j: 'next-variant',
  k: 'previous-variant',
  o: 'open-recording',
  '.': 'step-forward',
  ',': 'step-back',
  Escape: 'clear-playhead',
  '+': 'zoom-in',
  '=': 'zoom-in',
  '-': 'zoom-out',
  _: 'zoom-out',
  ArrowLeft: 'pan-left',
  ArrowRight: 'pan-right',
  l: 'follow',
  p: 'presenter',
  t: 'theme',
  h: 'contrast',
  '?': 'help',
};

/** In presenter mode the arrows (and a clicker's page keys) step through chapters instead of panning. */
const presenting: Record<string, ShortcutId> = {
  ArrowRight: 'next-chapter',
  PageDown: 'next-chapter',
  ArrowLeft: 'previous-chapter',
  PageUp: 'previous-chapter',
};

/** The shortcut a key press asks for, or null. Digits go by their physical key, shifted or not. */
export function matchShortcut(e: KeyLike, mode: { presenter?: boolean } = {}): Match | null {
  if (mode.presenter && presenting[e.key]) return { id: presenting[e.key]! };
  const digit = /^Digit([1-9])$/.exec(e.code) ?? /^Numpad([1-9])$/.exec(e.code);
  if (digit) return { id: e.shiftKey ? 'kill-worker' : 'pause-worker', worker: Number(digit[1]) };
  if (e.key === '0' || e.code === 'Digit0' || e.code === 'Numpad0') return { id: 'fit' };
  const id = plain[e.key];
  return id ? { id } : null;
}

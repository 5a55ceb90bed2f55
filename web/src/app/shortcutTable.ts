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

// The help's table, one shortcut a line: id, keys as the help writes them (a space between
// two), what it does. Columns stand apart by two spaces or more.
const TABLE: Record<Shortcut['group'], string> = {
  Run: `
    run                R           run the selected variant
    compare            C           run it beside its counterpart (broken above correct)
    cancel             X           cancel the run in progress
    replay             Space       replay the runs on screen (no server needed); again: pause, go on
    slower             S           slower: stretch every sleep and TTL (down to 0.25×)
    faster             Shift+S     faster (up to 2×)
  `,
  Choose: `
    next-scenario      N ]         next scenario
    previous-scenario  Shift+N [   previous scenario
    toggle-variant     V           toggle broken ↔ correct variant
    next-variant       J           next variant
    previous-variant   K           previous variant
    open-recording     O           open a recorded run from a file
  `,
  Faults: `
    pause-worker       1…9         pause / resume worker n (SIGSTOP / SIGCONT)
    kill-worker        Shift+1…9   kill worker n (SIGKILL)
  `,
  Timeline: `
    step-forward       .           step the playhead to the next event
    step-back          ,           step the playhead to the previous event
    clear-playhead     Esc         clear the playhead (back to live)
    zoom-in            +           zoom in (or the wheel over the timeline)
    zoom-out           −           zoom out
    fit                0           show the whole run
    pan-left           ←           pan earlier (or drag); in presenter mode: previous chapter
    pan-right          →           pan later; in presenter mode: next chapter
    follow             L           follow the live edge on / off
  `,
  Present: `
    presenter          P           presenter mode: the stage only, in large type
    next-chapter       → PageDown  presenter mode: next chapter (scenario → broken run → correct run)
    previous-chapter   ← PageUp    presenter mode: previous chapter
    theme              T           light / dark theme
    contrast           H           high contrast, for a washed-out projector
    help               ?           show these shortcuts
  `,
};

export const SHORTCUTS: Shortcut[] = Object.entries(TABLE).flatMap(([group, lines]) =>
  lines
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [id, keys, does] = line.split(/\s{2,}/) as [ShortcutId, string, string];
      return { id, keys: keys.split(' '), does, group: group as Shortcut['group'] };
    }),
);

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

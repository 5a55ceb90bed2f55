// What each command of the embed protocol does to the page: the same actions the page's
// own buttons and keys take. Time has one owner: play starts the replay clock (which moves
// the store's cursor), pause, seek and step hold the cursor; nothing here keeps a clock.
import type { EmbedCommand } from '@racelab/shared';
import { openShipped } from '../app/recordings.js';
import { cursorAt, logEndMs } from '../model/cursor.js';
import { momentsOf, stepMoment } from '../model/playhead.js';
import { replayShown } from '../replay/player.js';
import type { AppStore } from '../store/index.js';
import { isRunning, selectCurrentRun, selectReplaying } from '../store/selectors.js';
import { findScenario } from '../store/selectionSlice.js';
import { setPlayhead } from '../view/viewActions.js';

/** Where the runs on screen end, in ms (0 with none). */
export function shownEndMs(store: AppStore): number {
  const s = store.getState();
  return Math.max(0, ...s.shown.map((id) => (s.runs[id] ? logEndMs(s.runs[id].events) : 0)));
}

function play(store: AppStore): string | null {
  const s = store.getState();
  const run = selectCurrentRun(s);
  if (!run) {
    if (!s.transport) return 'nothing to play: select a recording (there is no server to run a variant)';
    return s.startRun() ? null : (store.getState().runError ?? 'the run did not start');
  }
  // A live run in progress: back to following it.
  if (isRunning(run)) return (s.setCursor({ mode: 'live' }), null);
  if (selectReplaying(s)) return null;
  const at = cursorAt(s.cursor);
  replayShown(store, s.speed, at === null || at >= shownEndMs(store) ? 0 : at);
  return null;
}

function pause(store: AppStore): string | null {
  const s = store.getState();
  const run = selectCurrentRun(s);
  if (!run) return null;
  // A live run goes on; the view holds where it was.
  s.setCursor({ mode: 'held', atMs: cursorAt(s.cursor) ?? logEndMs(run.events) });
  return null;
}

function seek(store: AppStore, ms: number): string | null {
  const s = store.getState();
  if (!selectCurrentRun(s)) return 'nothing on screen to seek in';
  const at = Math.min(ms, shownEndMs(store));
  if (selectReplaying(s)) replayShown(store, s.speed, at);
  else setPlayhead(at, store);
  return null;
}

function step(store: AppStore, by: 1 | -1): string | null {
  const s = store.getState();
  const run = selectCurrentRun(s);
  if (!run) return 'nothing on screen to step through';
  setPlayhead(stepMoment(momentsOf(run.events), cursorAt(s.cursor), by), store);
  return null;
}

async function select(store: AppStore, command: Extract<EmbedCommand, { type: 'select' }>): Promise<string | null> {
  if (command.recording !== undefined) return openShipped(store, command.recording);
  const s = store.getState();
  const scenario = findScenario(s, command.scenario ?? null);
  if (!scenario) return `no scenario '${command.scenario}' here${s.catalog ? '' : ' (there is no server: select a recording)'}`;
  if (command.variant !== undefined && !scenario.variants.some((v) => v.id === command.variant))
    return `the scenario '${scenario.id}' has no variant '${command.variant}'`;
  s.selectScenario(scenario.id);
  if (command.variant !== undefined) s.selectVariant(command.variant);
  s.clearShown();
  return null;
}

/** Does what a command asks; resolves to an error in words, or null. */
export async function performCommand(store: AppStore, command: EmbedCommand): Promise<string | null> {
  switch (command.type) {
    case 'play':
      return play(store);
    case 'pause':
      return pause(store);
    case 'seek':
      return seek(store, command.ms);
    case 'step':
      return step(store, command.by);
    case 'select':
      return select(store, command);
  }
}

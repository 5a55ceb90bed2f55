// The lock libraries' scorecard, shipped with the page: docs/scorecard.json, built into a
// chunk of its own that is fetched when the view first opens (no second copy to keep in
// step), held to the shared schema. Each cell's run is a shipped recording.
import { cellRecordingPath, Scorecard, SCORECARD_RECORDINGS, type CellReading } from '@racelab/shared';
import type { AppStore } from '../store/index.js';
import { openShipped } from './recordings.js';

export type LoadedScorecard = { ok: true; card: Scorecard } | { ok: false; error: string };

let loading: Promise<LoadedScorecard> | null = null;

/** The scorecard the page was built with (loaded once). */
export function loadScorecard(): Promise<LoadedScorecard> {
  loading ??= import('../../../docs/scorecard.json').then(
    (module) => {
      const parsed = Scorecard.safeParse(module.default);
      return parsed.success
        ? { ok: true, card: parsed.data }
        : { ok: false, error: `the scorecard does not read: ${parsed.error.issues[0]?.message ?? 'bad shape'}` };
    },
    (e: unknown) => ({ ok: false, error: `the scorecard could not be fetched: ${e instanceof Error ? e.message : String(e)}` }),
  );
  return loading;
}

/** Replays a cell's run on the page (no server: a shipped recording) in place of the matrix; an error in words, or null. */
export async function openCell(store: AppStore, cell: CellReading, name: string): Promise<string | null> {
  const path = cellRecordingPath(cell);
  if (!path) return `${name} has no run`;
  const error = await openShipped(store, path);
  if (!error) store.getState().setScorecard(false);
  return error;
}

/** The run on screen came from the scorecard: the page offers the way back to it. */
export const fromScorecard = (file: string | null): boolean => file?.startsWith(`${SCORECARD_RECORDINGS}/`) === true;

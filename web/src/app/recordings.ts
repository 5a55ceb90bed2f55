// Recorded runs shipped with the page (web/public/recordings) and files the user opens:
// parsed with the shared format, shown in the page with no server behind it.
import { parseRecording, ShippedRecordingIndex, type ShippedRecording } from '@racelab/shared';
import { safeRecordingName } from '../model/urlState.js';
import type { AppStore } from '../store/index.js';
import { pageUrl } from './pageUrl.js';

const url = (path: string) => pageUrl(`recordings/${path}`);

/** The list of shipped recordings; empty when there is none. */
export async function listShipped(): Promise<ShippedRecording[]> {
  try {
    const response = await fetch(url('index.json'));
    if (!response.ok) return [];
    const list = ShippedRecordingIndex.safeParse(await response.json());
    // Only names the page may fetch: a file in the recordings folder, nothing above it.
    return list.success ? list.data.filter((entry) => safeRecordingName(entry.file)) : [];
  } catch {
    return [];
  }
}

/** Loads text as a recording into the page; returns an error in words, or null. */
export function openRecordingText(store: AppStore, text: string, file: string | null): string | null {
  const parsed = parseRecording(text);
  if (!parsed.ok) return parsed.error;
  store.getState().loadRecording(parsed.recording, file);
  return null;
}

export type FetchedRecording = { ok: true; name: string; text: string } | { ok: false; error: string };

/** Fetches a shipped recording's text by file name; the error in words. */
export async function fetchShipped(file: string): Promise<FetchedRecording> {
  const name = safeRecordingName(file);
  if (!name) return { ok: false, error: `'${file}' is not a recording name` };
  try {
    const response = await fetch(url(name));
    if (!response.ok) return { ok: false, error: `the recording ${name} could not be fetched (HTTP ${response.status})` };
    return { ok: true, name, text: await response.text() };
  } catch (e) {
    return { ok: false, error: `the recording ${name} could not be fetched: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Fetches a shipped recording by file name and shows it; returns an error in words, or null. */
export async function openShipped(store: AppStore, file: string): Promise<string | null> {
  const fetched = await fetchShipped(file);
  return fetched.ok ? openRecordingText(store, fetched.text, fetched.name) : fetched.error;
}

// A recorded run: the same event log the page was fed, with the scenario's manifest, so
// a file replays in the page with no server, Redis or PostgreSQL behind it.
import { z } from 'zod';
import { ScenarioManifest } from './catalog.js';
import type { RunEvent } from './events.js';
import { parseJsonBy } from './parseJson.js';
import { runEventSchema } from './protocol.js';
import { upgradeRecording } from './recordingUpgrade.js';

export const RECORDING_FORMAT = 'racelab-run';
/** 2: a staged fault's place as fields (version-1 files are upgraded as they are opened: recordingUpgrade.ts). */
export const RECORDING_VERSION = 2;
/** Largest recording racelab ships with the page, in bytes (`npm run recordings` holds each file to it). */
export const MAX_SHIPPED_RECORDING_BYTES = 200 * 1024;

const RecordingSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  /** When the run was recorded, ISO 8601. */
  recordedAt: z.string().max(100),
  scenario: ScenarioManifest,
  variant: z.string().max(100),
  events: z.array(runEventSchema).max(1_000_000),
});
/** A recorded run: a manifest and the event log, as the file holds them. */
export type Recording = z.infer<typeof RecordingSchema>;

/** The list of recordings shipped with the page (recordings/index.json): each file with its title. */
export const ShippedRecordingIndex = z.array(z.object({ file: z.string().max(200), title: z.string().max(300) }));
export type ShippedRecording = z.infer<typeof ShippedRecordingIndex>[number];

/** Builds the file content of a recorded run. */
export function createRecording(scenario: ScenarioManifest, variant: string, events: RunEvent[], recordedAt: Date): Recording {
  return { format: RECORDING_FORMAT, version: RECORDING_VERSION, recordedAt: recordedAt.toISOString(), scenario, variant, events };
}

export type ParsedRecording = { ok: true; recording: Recording } | { ok: false; error: string };

/** Parses a recorded run's file content; the error says what is wrong with it. */
export function parseRecording(text: string): ParsedRecording {
  const parsed = parseJsonBy(z.preprocess(upgradeRecording, RecordingSchema), text, {
    notJson: () => 'the file is not JSON',
    invalid: () => 'not a racelab recording',
  });
  return parsed.ok ? { ok: true, recording: parsed.value } : parsed;
}

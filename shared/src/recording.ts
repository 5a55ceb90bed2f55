// A recorded run: the same event log the page was fed, with the scenario's manifest, so
// a file replays in the page with no server, Redis or PostgreSQL behind it.
import { z } from 'zod';
import type { ScenarioManifest } from './catalog.js';
import { RunEvent } from './events.js';
import { describeIssue } from './protocol.js';

export const RECORDING_FORMAT = 'racelab-run';
export const RECORDING_VERSION = 1;

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: typeof RECORDING_VERSION;
  /** When the run was recorded, ISO 8601. */
  recordedAt: string;
  scenario: ScenarioManifest;
  variant: string;
  events: RunEvent[];
}

const RecordingSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  recordedAt: z.string().max(100),
  // The manifest is plain data; its shape is checked where it is used.
  scenario: z.object({ id: z.string(), title: z.string(), variants: z.array(z.object({ id: z.string() }).loose()) }).loose(),
  variant: z.string().max(100),
  events: z.array(RunEvent).max(1_000_000),
});

/** Builds the file content of a recorded run. */
export function createRecording(scenario: ScenarioManifest, variant: string, events: RunEvent[], recordedAt: Date): Recording {
  return { format: RECORDING_FORMAT, version: RECORDING_VERSION, recordedAt: recordedAt.toISOString(), scenario, variant, events };
}

export type ParsedRecording = { ok: true; recording: Recording } | { ok: false; error: string };

/** Parses a recorded run's file content; the error says what is wrong with it. */
export function parseRecording(text: string): ParsedRecording {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the file is not JSON' };
  }
  const result = RecordingSchema.safeParse(json);
  if (!result.success) return { ok: false, error: `not a racelab recording${describeIssue(result.error)}` };
  return { ok: true, recording: result.data as unknown as Recording };
}

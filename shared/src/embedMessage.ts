// The embed's postMessage protocol, version 1: what a host page (a blog post, a slide) may
// ask of a racelab embed in an <iframe>, and what the embed tells it. Every message carries
// `racelab: 1`, the protocol's version: a message of another version, or one that is not
// racelab's, is ignored. Strict objects, as on the socket: an unknown field is refused.
// docs/EMBED.md describes the protocol for the people who write host pages.
import { z } from 'zod';
import { describeIssue } from './parseJson.js';

/** The protocol's version, carried by every message as `racelab: 1`. */
export const EMBED_PROTOCOL_VERSION = 1;

/** Longest run the embed seeks in, in ms (a day): anything beyond is a mistake, not a moment. */
export const MAX_EMBED_MS = 86_400_000;

const version = z.literal(EMBED_PROTOCOL_VERSION);
const id = z.string().min(1).max(100);
const ms = z.number().finite().min(0).max(MAX_EMBED_MS);
/** A recording's file name, as the page's recordings folder names it (the page checks it again). */
const recordingName = z.string().min(1).max(200);

export const EmbedCommand = z.discriminatedUnion('type', [
  /** Plays the run on screen from the playhead (a finished run replays; with a server and nothing on screen, runs the selected variant). */
  z.strictObject({ racelab: version, type: z.literal('play') }),
  /** Holds the playhead where it is. */
  z.strictObject({ racelab: version, type: z.literal('pause') }),
  /** Puts the playhead at `ms` (run time); a replay that was playing goes on from there. */
  z.strictObject({ racelab: version, type: z.literal('seek'), ms }),
  /** Moves the playhead to the next (1) or previous (-1) moment of the run. */
  z.strictObject({ racelab: version, type: z.literal('step'), by: z.union([z.literal(1), z.literal(-1)]) }),
  /** Shows a shipped recording, or selects a scenario and variant (which `play` runs, where there is a server). */
  z
    .strictObject({
      racelab: version,
      type: z.literal('select'),
      recording: recordingName.optional(),
      scenario: id.optional(),
      variant: id.optional(),
    })
    .refine((m) => (m.recording === undefined) !== (m.scenario === undefined), {
      message: 'a select names either a recording or a scenario (with its variant), not both',
    })
    .refine((m) => m.scenario !== undefined || m.variant === undefined, {
      path: ['variant'],
      message: 'a variant comes with its scenario',
    }),
]);
/** A message a host page sends to the embed. */
export type EmbedCommand = z.infer<typeof EmbedCommand>;

/** What is on screen in the embed: one run, by scenario and variant, with its recording's file or its live run's id. */
const shownRun = z.strictObject({
  scenario: z.string(),
  variant: z.string(),
  recording: z.string().nullable(),
  runId: z.string().nullable(),
});

export const EmbedReport = z.discriminatedUnion('type', [
  /** The embed listens from now on; `shown` is the run on screen, if any yet. */
  z.strictObject({ racelab: version, type: z.literal('ready'), shown: shownRun.nullable() }),
  /** Where the playhead is (`ms`, run time) and where the run ends; sent at most every CURSOR_REPORT_MS while it moves, and where it stops. */
  z.strictObject({ racelab: version, type: z.literal('cursor'), ms, endMs: ms, playing: z.boolean() }),
  /** The run's verdict, once the playhead reaches the run's end: held (pass) or not, and its headline. */
  z.strictObject({ racelab: version, type: z.literal('verdict'), ...shownRun.shape, pass: z.boolean(), headline: z.string() }),
  /** The playhead reached the end of the run while playing. */
  z.strictObject({ racelab: version, type: z.literal('ended'), ms }),
  /** A command could not be done (a recording that would not open, a run with no server); `command` names it. */
  z.strictObject({ racelab: version, type: z.literal('error'), command: z.string(), error: z.string() }),
]);
/** A message the embed sends to its host page. */
export type EmbedReport = z.infer<typeof EmbedReport>;

/** Most cursor reports per second: enough for a host's own progress bar, few enough to cost nothing. */
export const CURSOR_REPORT_MS = 100;

/** Reads a message's data as a command, or says in words why it is not one (another version, another sender's message, malformed). */
export function parseEmbedCommand(data: unknown): { ok: true; command: EmbedCommand } | { ok: false; error: string } {
  const parsed = EmbedCommand.safeParse(data);
  if (parsed.success) return { ok: true, command: parsed.data };
  if (typeof data !== 'object' || data === null || !('racelab' in data))
    return { ok: false, error: 'not a racelab message (no racelab field)' };
  if (data.racelab !== EMBED_PROTOCOL_VERSION)
    return { ok: false, error: `protocol version ${String(data.racelab)} (this embed speaks ${EMBED_PROTOCOL_VERSION})` };
  return { ok: false, error: `invalid command${describeIssue(parsed.error)}` };
}

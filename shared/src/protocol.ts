// Every message on the page's WebSocket, in one union per direction.
import { z } from 'zod';
import type { ScenarioManifest } from './catalog.js';
import type { RunEvent } from './events.js';

/** Largest frame the server accepts from a page, in bytes. */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024;

const id = z.string().min(1).max(100);

export const ClientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start-run'),
    /** Chosen by the page to match the answer to the request. */
    requestId: id,
    scenario: id,
    variant: id,
    params: z.record(z.string().max(100), z.unknown()).default({}),
  }),
  z.object({ type: z.literal('cancel-run'), runId: id }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export type ServerMessage =
  | { type: 'hello'; catalog: ScenarioManifest[] }
  | { type: 'run-accepted'; requestId: string; runId: string }
  | { type: 'run-rejected'; requestId: string; error: string }
  | { type: 'run-event'; runId: string; event: RunEvent }
  | { type: 'error'; error: string };

export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; error: string };

/** Parses one text frame from a page; the error names what was wrong with it. */
export function parseClientMessage(text: string): ParsedClientMessage {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'message is not valid JSON' };
  }
  const result = ClientMessage.safeParse(json);
  if (result.success) return { ok: true, message: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at '${issue.path.join('.')}'` : '';
  return { ok: false, error: `invalid message${where}: ${issue?.message ?? 'unknown problem'}` };
}

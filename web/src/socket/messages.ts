// Parses each frame from the server with the shared schema and routes the message to the
// store action that records it. A frame the schema refuses reaches no store action.
import { eventsOf, parseServerMessage, type RunEvent, type ScenarioManifest, type ServerMessage } from '@racelab/shared';

export interface MessageSink {
  setCatalog(catalog: ScenarioManifest[]): void;
  /** `workers`: the run's workers, named before they start. */
  runAccepted(requestId: string, runId: string, controlKey: string, workers: string[]): void;
  runRejected(requestId: string, error: string): void;
  /** The start waits in line for a run slot. */
  runQueued(requestId: string, position: number, estimateMs: number, queueKey: string): void;
  /** The server forgot a run this page asked to resume. */
  runUnknown(runId: string): void;
  /** A run this page asked to resume died with its server. */
  runLost(runId: string, server?: string): void;
  /** Called for each run event; the client batches them before they reach the store. */
  runEvent(runId: string, event: RunEvent): void;
  setServerError(error: string | null): void;
}

/**
 * Parses one frame and routes it. A frame that is not a server message is refused loudly:
 * on the console and on the page, with what was wrong (the field and why), never fed to
 * the store. Returns whether the frame was taken.
 */
export function receive(data: unknown, sink: MessageSink, log: (text: string) => void = console.error): boolean {
  const parsed =
    typeof data === 'string' ? parseServerMessage(data) : { ok: false as const, error: 'a binary frame: the server sends JSON text' };
  if (parsed.ok) {
    dispatch(parsed.message, sink);
    return true;
  }
  const error = `the page could not read a message from the server and left it out: ${parsed.error}`;
  log(`racelab: ${error}`);
  sink.setServerError(error);
  return false;
}

/** Routes one parsed server message to the sink (frames are parsed by `parseServerMessage` in shared). */
export function dispatch(message: ServerMessage, sink: MessageSink): void {
  switch (message.type) {
    case 'hello':
      sink.setCatalog(message.catalog);
      return;
    case 'run-accepted':
      sink.runAccepted(message.requestId, message.runId, message.controlKey, message.workers);
      return;
    case 'run-rejected':
      sink.runRejected(message.requestId, message.error);
      return;
    case 'run-queued':
      sink.runQueued(message.requestId, message.position, message.estimateMs, message.queueKey);
      return;
    case 'queue-left':
      // The page took the start out of its pending ones when it asked to leave.
      return;
    case 'run-unknown':
      sink.runUnknown(message.runId);
      return;
    case 'run-lost':
      sink.runLost(message.runId, message.server);
      return;
    case 'run-event':
    case 'run-events':
      for (const event of eventsOf(message)) sink.runEvent(message.runId, event);
      return;
    case 'error':
      sink.setServerError(message.error);
      return;
  }
}

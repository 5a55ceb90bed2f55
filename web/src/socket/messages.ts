// Routes each server message to the store action that records it.
import { eventsOf, type RunEvent, type ScenarioManifest, type ServerMessage } from '@racelab/shared';

export interface MessageSink {
  setCatalog(catalog: ScenarioManifest[]): void;
  runAccepted(requestId: string, runId: string, controlKey: string): void;
  runRejected(requestId: string, error: string): void;
  /** The server forgot a run this page asked to resume. */
  runUnknown(runId: string): void;
  /** Called for each run event; the client batches them before they reach the store. */
  runEvent(runId: string, event: RunEvent): void;
  setServerError(error: string | null): void;
}

function isEvent(x: unknown): x is RunEvent {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Record<string, unknown>;
  return (
    typeof e.type === 'string' &&
    typeof e.seq === 'number' &&
    typeof e.atMs === 'number' &&
    (e.workerId === null || typeof e.workerId === 'string')
  );
}

/** Parses one text frame; returns the message, or null when it is not one we understand. */
export function parseServerMessage(text: string): ServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const m = json as Record<string, unknown>;
  switch (m.type) {
    case 'hello':
      return Array.isArray(m.catalog) ? (m as unknown as ServerMessage) : null;
    case 'run-accepted':
      return typeof m.requestId === 'string' && typeof m.runId === 'string' && typeof m.controlKey === 'string' ? (m as unknown as ServerMessage) : null;
    case 'run-rejected':
      return typeof m.requestId === 'string' && typeof m.error === 'string' ? (m as unknown as ServerMessage) : null;
    case 'run-unknown':
      return typeof m.runId === 'string' ? (m as unknown as ServerMessage) : null;
    case 'run-event':
      return typeof m.runId === 'string' && isEvent(m.event) ? (m as unknown as ServerMessage) : null;
    case 'run-events':
      return typeof m.runId === 'string' && Array.isArray(m.events) && m.events.every(isEvent) ? (m as unknown as ServerMessage) : null;
    case 'error':
      return typeof m.error === 'string' ? (m as unknown as ServerMessage) : null;
    default:
      return null;
  }
}

export function dispatch(message: ServerMessage, sink: MessageSink): void {
  switch (message.type) {
    case 'hello':
      sink.setCatalog(message.catalog);
      return;
    case 'run-accepted':
      sink.runAccepted(message.requestId, message.runId, message.controlKey);
      return;
    case 'run-rejected':
      sink.runRejected(message.requestId, message.error);
      return;
    case 'run-unknown':
      sink.runUnknown(message.runId);
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

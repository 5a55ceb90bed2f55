// The shape of the one store. Each slice owns its fields and actions; actions are plain
// functions on the state, callable from React and from the socket client alike.
import type { ClientMessage, RunEvent, ScenarioManifest } from '@racelab/shared';
import type { ParamInputs } from '../model/params.js';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export interface CatalogSlice {
  catalog: ScenarioManifest[] | null;
  setCatalog(catalog: ScenarioManifest[]): void;
}

export interface ConnectionSlice {
  connection: ConnectionState;
  /** Sends a message to the server; null while disconnected. Set by the socket client. */
  transport: ((message: ClientMessage) => boolean) | null;
  setConnection(state: ConnectionState): void;
  setTransport(send: ((message: ClientMessage) => boolean) | null): void;
  /** The last error the server reported outside a run. */
  serverError: string | null;
  setServerError(error: string | null): void;
}

export interface SelectionSlice {
  scenarioId: string | null;
  variantId: string | null;
  /** The text of each parameter field. */
  paramInputs: ParamInputs;
  selectScenario(id: string): void;
  selectVariant(id: string): void;
  setParamInput(name: string, text: string): void;
}

export interface RunRecord {
  runId: string;
  scenario: string;
  variant: string;
  /** The raw, append-only event log, in arrival order. */
  events: RunEvent[];
  /** performance.now() at the run's time zero, estimated from arrivals (for the live edge). */
  clientOriginMs: number | null;
  /** Right edge of the drawing while the run is in progress. */
  horizonMs: number;
  /** The connection dropped before the run ended. */
  lost: boolean;
}

export interface PendingRun {
  requestId: string;
  scenario: string;
  variant: string;
}

export interface RunsSlice {
  runs: Record<string, RunRecord>;
  currentRunId: string | null;
  pending: PendingRun | null;
  /** Why the last start-run was refused. */
  runError: string | null;
  /** Validates the selection and asks the server to start a run; false when it could not. */
  startRun(): boolean;
  cancelRun(): void;
  runAccepted(requestId: string, runId: string): void;
  runRejected(requestId: string, error: string): void;
  /** Appends to a run's log; `originEstimateMs` is min(arrival − atMs) over the batch. */
  appendEvents(runId: string, events: RunEvent[], originEstimateMs: number): void;
  extendHorizon(runId: string, horizonMs: number): void;
  /** The connection dropped: a run in progress can no longer be followed. */
  connectionLost(): void;
}

export type State = CatalogSlice & ConnectionSlice & SelectionSlice & RunsSlice;
export type SliceCreator<T> = (
  set: (partial: Partial<State> | ((s: State) => Partial<State>)) => void,
  get: () => State,
) => T;

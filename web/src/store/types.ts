// The shape of the one store. Each slice owns its fields and actions; actions are plain
// functions on the state, callable from React and from the socket client alike. The visible
// window lives in view/viewStore instead; time (the cursor) lives here, beside the logs.
import type { ClientMessage, FaultRule, LiveFaultAction, Recording, RunEvent, ScenarioManifest } from '@racelab/shared';
import type { Cursor } from '../model/cursor.js';
import type { ExercisesOnServer } from '../model/exercise/onServer.js';
import type { ParamInputs } from '../model/params.js';
import type { UrlSetup } from '../model/urlState.js';

/** `offline`: a recording opened from a link (?replay=) plays with no server, and no socket is opened. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

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
  /** The fault plan the next run takes (the variant's own until edited). */
  faults: FaultRule[];
  /** Time scale of the next run (and of replays). */
  speed: number;
  /** The variant a compare run puts beside the selected one; null: the first of the other kind. */
  compareWith: string | null;
  /** A schedule from a link (the explorer's): the next run replays it; null once another variant or scenario is chosen. */
  schedule: string | null;
  selectScenario(id: string): void;
  selectVariant(id: string): void;
  setParamInput(name: string, text: string): void;
  setFaults(rules: FaultRule[]): void;
  setSpeed(speed: number): void;
  setCompareWith(id: string | null): void;
  /** The next run plays as the scenario's choreography orders it, not as the link's schedule. */
  dropSchedule(): void;
  /** Restores a setup from a link (scenario, variant, parameters, faults, speed, compare). */
  applySetup(setup: UrlSetup): void;
}

/** Dark, light, or high contrast (black on white, saturated colours) for a washed-out projector. */
export type Theme = 'dark' | 'light' | 'contrast';

export interface UiSlice {
  presenter: boolean;
  /** A workshop's chapters (`?workshop=1`): each scenario's exercise is a step after its correct run; a talk's have none. */
  workshop: boolean;
  theme: Theme;
  helpOpen: boolean;
  /** A message for the whole page (e.g. a recording that would not open). */
  notice: string | null;
  /** The lock libraries' scorecard is shown in place of the playground. */
  scorecard: boolean;
  /** The event picked out on the timeline (a click on its mark, or a link's `event=`), by seq; null: none. */
  selectedEvent: number | null;
  setSelectedEvent(seq: number | null): void;
  setNotice(notice: string | null): void;
  setScorecard(open: boolean): void;
  setPresenter(on: boolean): void;
  setWorkshop(on: boolean): void;
  setTheme(theme: Theme): void;
  setHelpOpen(open: boolean): void;
}

export interface ExerciseSlice {
  /** Whether the server runs edited code, and every scenario's exercise (asked once at start). */
  exercises: ExercisesOnServer;
  /** The scenario whose exercise is open ("Fix it yourself"), or null. */
  exercise: string | null;
  setExercises(exercises: ExercisesOnServer): void;
  /** Opens a scenario's exercise (and selects that scenario and the variant it starts from); null closes it. */
  openExercise(scenario: string | null): void;
}

export type RunSource = 'live' | 'recording';

export interface RunRecord {
  runId: string;
  scenario: string;
  variant: string;
  source: RunSource;
  /** The scenario as the recording carries it; null for live runs. */
  manifest: ScenarioManifest | null;
  /** The shipped recording's file name, when it came from one. */
  file: string | null;
  /** Position on screen in a compare: 0 on top. */
  slot: number;
  /** The raw, append-only event log, in arrival order. */
  events: RunEvent[];
  /** performance.now() at the run's time zero, estimated from arrivals (for the live edge). */
  clientOriginMs: number | null;
  /** The connection dropped before the run ended (it may resume when the page reconnects). */
  lost: boolean;
  /** The run died with its server (a run-lost answered the resubscribe): it decided nothing and never resumes; `server` names it. */
  serverLost: { server?: string } | null;
  /** The workers the server named when it took the run: lanes to draw until its run-started comes. */
  roster: readonly string[];
}

export interface PendingRun {
  requestId: string;
  scenario: string;
  variant: string;
  slot: number;
  /** Set while the start waits in line for a run slot: where, for about how long, and the key that keeps the place across a reconnect. */
  queued?: { position: number; estimateMs: number; queueKey: string };
}

export interface RunsSlice {
  runs: Record<string, RunRecord>;
  /** The runs on screen, top to bottom: one, or two in a compare. */
  shown: string[];
  /** start-run requests not yet answered. */
  pending: PendingRun[];
  /** Why the last start-run was refused. */
  runError: string | null;
  /** Validates the selection and asks the server to start a run; false when it could not. */
  startRun(): boolean;
  /** Starts the selected variant and its counterpart with the same parameters, faults and speed. */
  startCompare(): boolean;
  /** Runs the open exercise's edited code as the variant `your-fix`, with the selected parameters, faults and speed. */
  startExerciseRun(code: string): boolean;
  cancelRun(): void;
  /** Takes the runs off the screen (a chapter that shows the scenario only). */
  clearShown(): void;
  /** A live fault on a worker's real process or a lab node (a slow carries its latency, and loss); false when it could not be sent. */
  sendFault(runId: string, workerId: string, action: LiveFaultAction, slowdown?: { latencyMs: number; lossPercent?: number }): boolean;
  /** `workers`: the run's workers as the server named them on taking it (their lanes are laid out before they start). */
  runAccepted(requestId: string, runId: string, workers?: string[]): void;
  runRejected(requestId: string, error: string): void;
  /** The start waits in line for a slot, at `position` (1: next), for about `estimateMs`. */
  runQueued(requestId: string, position: number, estimateMs: number, queueKey: string): void;
  /** Leaves the line: every start of this page waiting in it is cancelled. */
  leaveQueue(): void;
  /** Starts in line to take up again after a reconnect, with their keys. */
  rejoinable(): { requestId: string; queueKey: string }[];
  /** Appends to a run's log; `originEstimateMs` is min(arrival − atMs) over the batch. */
  appendEvents(runId: string, events: RunEvent[], originEstimateMs: number): void;
  /** The connection dropped: runs in progress are lost until the page resubscribes. */
  connectionLost(): void;
  /** Runs to resubscribe to after a reconnect, with the last seq this page holds. */
  resumable(): { runId: string; afterSeq: number }[];
  /** The page resubscribed: the run is followed again. */
  runResumed(runId: string): void;
  /** The server no longer knows the run: it stays lost. */
  runUnknown(runId: string): void;
  /** The run died with its server (`server`, when named): it stays lost and is never resumed. */
  runLostWithServer(runId: string, server?: string): void;
  /** Starts the run's scenario and variant again, with the parameters, faults and speed selected (a run lost with its server). */
  runAgain(runId: string): boolean;
  /** Shows a recorded run (whole, at once); returns its run id. */
  loadRecording(recording: Recording, file?: string | null): string;
  /** Shows a live run the page did not start, by id (a link's `run=`): the socket subscribes to it from its start. */
  openLinkedRun(runId: string): void;
}

/**
 * Which moment of the runs on screen is shown: one cursor for the view, because the runs on
 * screen share one time axis (a compare steps and replays both at once). Reset to live
 * whenever other runs come on screen.
 */
export interface CursorSlice {
  cursor: Cursor;
  /** Moves the cursor: to live, held at a moment, or to where the replay clock is. */
  setCursor(cursor: Cursor): void;
}

export type State = CatalogSlice & ConnectionSlice & SelectionSlice & UiSlice & RunsSlice & CursorSlice & ExerciseSlice;
export type SliceCreator<T> = (set: (partial: Partial<State> | ((s: State) => Partial<State>)) => void, get: () => State) => T;

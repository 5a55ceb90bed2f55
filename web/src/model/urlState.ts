// The setup in the page's URL, so that a link reproduces it: scenario, variant, every
// parameter as typed, the fault plan, the speed, the variant to compare with, and how the
// page looks (presenter mode, theme). A link may also name a moment: a live run the server
// still keeps (`run=`), a time (`t=`, ms) and an event (`event=`, its seq), or a presenter
// chapter (`chapter=`, from 1). A link may carry a schedule the explorer found (`schedule=`):
// Run then replays it live. `embed=1` shows the embed view (with the origin it may
// trust, `origin=`). Opening a link restores the setup; it never runs.
import { parseChoices, type FaultRule } from '@racelab/shared';
import { formatPlan, parsePlan } from './faultPlan.js';

export interface UrlSetup {
  scenario?: string;
  variant?: string;
  /** Parameter texts by name (from `p.<name>=`). */
  params: Record<string, string>;
  /** Absent: the variant's own plan. */
  faults?: FaultRule[];
  speed?: number;
  compare?: string;
  /** A shipped recording to open, by file name. */
  replay?: string;
  /** A schedule the explorer found (`schedule=`, schedule.ts's text): Run replays it live. */
  schedule?: string;
  /** A scenario's exercise is open ("Fix it yourself", `?exercise=<scenario>`). */
  exercise?: string;
  /** The lock libraries' scorecard is open (`?scorecard=1`). */
  scorecard?: boolean;
  presenter?: boolean;
  /** Presenter mode's chapters include each scenario's exercise, for a workshop (`?workshop=1`). */
  workshop?: boolean;
  theme?: 'light' | 'dark';
  /** A live run by id, to follow or see again while the server keeps it (`run=`). */
  run?: string;
  /** The playhead's moment, in run ms (`t=`). */
  t?: number;
  /** The selected event, by its seq in the run's log (`event=`). */
  event?: number;
  /** Presenter mode's chapter, from 1 (`chapter=`). */
  chapter?: number;
  /** The embed view (`embed=1`): the timeline, the verdict and play, pause, step. */
  embed?: boolean;
  /** The one origin an embed takes commands from and reports to (`origin=`); absent: its own. */
  origin?: string;
}

export const SPEEDS = [0.25, 0.5, 0.75, 1, 1.5, 2] as const;

/**
 * A recording file name the page may fetch from its own recordings folder: a plain name,
 * or one folder down (`scorecard/<file>`). No dot in the folder: nothing above it.
 */
export function safeRecordingName(name: string): string | null {
  return /^(?:[A-Za-z0-9][A-Za-z0-9_-]{0,60}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.json$/.test(name) ? name : null;
}

/** A whole number from a link, within 0…max; undefined when it is anything else. */
function wholeNumber(text: string | null, max: number): number | undefined {
  if (text === null || !/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= max ? n : undefined;
}

/** The origin `text` names ("https://blog.example", "http://localhost:8080"), exactly; null when it names anything else. */
export function safeOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.origin === text ? text : null;
  } catch {
    return null;
  }
}

/** Longest run time a link may name, in ms (a day). */
const MAX_LINK_MS = 86_400_000;

/** The moment and the embed a link names (see `UrlSetup`): the fields readSetup adds to a setup. */
function readMoment(q: URLSearchParams, setup: UrlSetup): void {
  const run = q.get('run');
  if (run && /^[A-Za-z0-9_-]{1,100}$/.test(run)) setup.run = run;
  const t = wholeNumber(q.get('t'), MAX_LINK_MS);
  if (t !== undefined) setup.t = t;
  const event = wholeNumber(q.get('event'), 1e9);
  if (event !== undefined) setup.event = event;
  const chapter = wholeNumber(q.get('chapter'), 1000);
  if (chapter !== undefined && chapter >= 1) setup.chapter = chapter;
  if (q.get('embed') === '1') setup.embed = true;
  const origin = safeOrigin(q.get('origin') ?? '');
  if (origin) setup.origin = origin;
}

export function readSetup(search: string): UrlSetup {
  const q = new URLSearchParams(search);
  const setup: UrlSetup = { params: {} };
  for (const [key, value] of q) if (key.startsWith('p.') && key.length > 2) setup.params[key.slice(2)] = value;
  const text = (k: string) => q.get(k) ?? undefined;
  if (text('scenario')) setup.scenario = text('scenario');
  if (text('variant')) setup.variant = text('variant');
  if (text('compare')) setup.compare = text('compare');
  const faults = q.get('faults');
  if (faults !== null) {
    const plan = parsePlan(faults);
    if (plan) setup.faults = plan;
  }
  const speed = Number(q.get('speed'));
  if (q.has('speed') && (SPEEDS as readonly number[]).includes(speed)) setup.speed = speed;
  const schedule = q.get('schedule');
  if (schedule !== null && parseChoices(schedule).ok) setup.schedule = schedule;
  const replay = q.get('replay');
  if (replay && safeRecordingName(replay)) setup.replay = replay;
  if (q.get('scorecard') === '1') setup.scorecard = true;
  const exercise = q.get('exercise');
  if (exercise && /^[a-z0-9][a-z0-9-]{0,60}$/.test(exercise)) setup.exercise = exercise;
  if (q.get('presenter') === '1') setup.presenter = true;
  if (q.get('workshop') === '1') setup.workshop = true;
  const theme = q.get('theme');
  if (theme === 'light' || theme === 'dark') setup.theme = theme;
  readMoment(q, setup);
  return setup;
}

/** The query string of a setup ("" when there is nothing to say). */
export function writeSetup(setup: UrlSetup): string {
  const q = new URLSearchParams();
  if (setup.embed) q.set('embed', '1');
  if (setup.scorecard) q.set('scorecard', '1');
  if (setup.exercise) q.set('exercise', setup.exercise);
  if (setup.replay) q.set('replay', setup.replay);
  if (setup.run) q.set('run', setup.run);
  if (setup.scenario) q.set('scenario', setup.scenario);
  if (setup.variant) q.set('variant', setup.variant);
  for (const [name, value] of Object.entries(setup.params)) q.set(`p.${name}`, value);
  if (setup.faults) q.set('faults', formatPlan(setup.faults));
  if (setup.speed !== undefined && setup.speed !== 1) q.set('speed', String(setup.speed));
  if (setup.compare) q.set('compare', setup.compare);
  if (setup.schedule) q.set('schedule', setup.schedule);
  if (setup.presenter) q.set('presenter', '1');
  if (setup.workshop) q.set('workshop', '1');
  if (setup.chapter !== undefined) q.set('chapter', String(setup.chapter));
  if (setup.theme === 'light') q.set('theme', 'light');
  if (setup.t !== undefined) q.set('t', String(Math.round(setup.t)));
  if (setup.event !== undefined) q.set('event', String(setup.event));
  if (setup.origin) q.set('origin', setup.origin);
  const text = q.toString().replace(/%3A/gi, ':').replace(/%2C/gi, ',').replace(/%2F/gi, '/');
  return text ? `?${text}` : '';
}

/** The page was opened to play a shipped recording (?replay=) or the scorecard of them: it needs no server and opens no socket. */
export function isOfflineReplay(search: string): boolean {
  const setup = readSetup(search);
  return setup.replay !== undefined || setup.scorecard === true;
}

// The verdict in numbers: one line per expectation, in the manifest's words.
import { metricText, verdictLine, type EventOf, type ScenarioManifest } from '@racelab/shared';
import { memoOnLogAnd, type EventLog } from './memo.js';
import { runSummary } from './runSummary.js';
import { isLinkCut, nodeFault } from './labNodeFaults.js';

export interface VerdictLine {
  id: string;
  /** "E-mails sent: 3 — should be 1" */
  text: string;
  /** The invariant in plain words, from the scenario. */
  invariant: string;
  held: boolean;
}

export interface MetricLine {
  name: string;
  text: string;
}

export type VerdictView =
  | { state: 'empty' }
  | { state: 'running' }
  | { state: 'failed'; message: string }
  | {
      state: 'finished';
      pass: boolean;
      /** "PASS — the invariant held" / "FAIL — the invariant was broken" */
      headline: string;
      lines: VerdictLine[];
      /** Metrics no expectation is about, shown for context. */
      others: MetricLine[];
      /**
       * Against the verdict expected at the run's parameters (absent in older recordings):
       * "Expected here: the lease (600 ms) is shorter than the work (900 ms); a lock cannot help",
       * or a warning when the verdict is not the one expected.
       */
      expectation?: { asExpected: boolean; text: string };
    };

const metricOf = (scenario: ScenarioManifest, metric: string) => scenario.metrics.find((m) => m.name === metric);

export function headlineOf(pass: boolean, total: number, broken: number): string {
  if (pass) return total > 1 ? `PASS — all ${total} invariants held` : 'PASS — the invariant held';
  if (total > 1 && broken > 1) return `FAIL — ${broken} of ${total} invariants were broken`;
  return total > 1 ? `FAIL — 1 of ${total} invariants was broken` : 'FAIL — the invariant was broken';
}

const EMPTY_SCENARIO: ScenarioManifest = {
  id: '',
  title: '',
  summary: '',
  explanation: '',
  params: [],
  metrics: [],
  variants: [],
};

function build(events: EventLog, scenario: ScenarioManifest): VerdictView {
  const { phase, finished, failed } = runSummary(events);
  if (phase === 'empty') return { state: 'empty' };
  if (failed) return { state: 'failed', message: failed.message };
  if (!finished) return { state: 'running' };
  const lines = finished.expectations.map((e) => ({
    id: e.id,
    text: verdictLine(e, metricOf(scenario, e.metric)),
    invariant: e.text,
    held: e.held,
  }));
  const covered = new Set(finished.expectations.map((e) => e.metric));
  const names = [...scenario.metrics.map((m) => m.name), ...Object.keys(finished.metrics)];
  const others = [...new Set(names)]
    .filter((n) => !covered.has(n) && finished.metrics[n] !== undefined)
    .map((n) => ({ name: n, text: metricText(metricOf(scenario, n), n, finished.metrics[n]) }));
  const pass = finished.verdict === 'pass';
  const broken = lines.filter((l) => !l.held).length;
  return {
    state: 'finished',
    pass,
    headline: headlineOf(pass, lines.length, broken),
    lines,
    others,
    ...expectationOf(finished, struckFrom(events)),
  };
}

/**
 * The faults a run was struck by that its expected verdict does not count, in words: a
 * worker's link cut or a lab node isolated (from the page or a plan; "then rejoined" when
 * its last cut ended before the run did) or slowed ("then restored" alike), a process paused from the page, a kill no plan
 * asked for. The expectation is of the parameters alone.
 */
export function struckFrom(events: EventLog): string[] {
  const started = runSummary(events).started;
  const plannedKill = started?.faults.some((f) => f.action === 'kill') ?? false;
  // By what the words are about, in the order each first struck.
  const words = new Map<string, string>();
  const add = (text: string) => words.set(text, text);
  for (const e of events) {
    const w = e.workerId ?? '';
    const f = nodeFault(e);
    if (f?.kind === 'cut') words.set(`node ${f.node}`, `${f.node} isolated${f.on ? '' : ', then rejoined'}`);
    if (f?.kind === 'slow') words.set(`slow ${f.node}`, `${f.node} slowed${f.on ? '' : ', then restored'}`);
    if (isLinkCut(e)) add(`${w}'s link cut`);
    if (e.type === 'process-paused' && e.plannedMs === null) add(`${w} paused from the page`);
    if (e.type === 'process-killed' && !plannedKill) add(`${w} killed from the page`);
  }
  return [...words.values()];
}

function expectationOf(finished: EventOf<'run-finished'>, struck: string[]): { expectation?: { asExpected: boolean; text: string } } {
  const expected = finished.expectedVerdict;
  if (!expected) return {};
  const asExpected = expected === finished.verdict;
  const reason = finished.expectedReason;
  if (asExpected) return reason ? { expectation: { asExpected, text: `Expected here: ${reason}` } } : {};
  const word = expected.toUpperCase();
  return {
    expectation: {
      asExpected,
      text: `NOT as expected: this run should give ${word}${reason ? ` here (${reason})` : ''}. ${
        struck.length > 0
          ? `Its parameters alone give that; it was also struck by faults they do not include (${struck.join(', ')}).`
          : 'A verdict that differs is a bug in racelab or a machine too busy for the choreography.'
      }`,
    },
  };
}

const memoBuild = memoOnLogAnd(build);

/** The verdict view of a run; the scenario gives the metric labels. */
export function deriveVerdict(events: EventLog, scenario: ScenarioManifest | undefined): VerdictView {
  return memoBuild(events, scenario ?? EMPTY_SCENARIO);
}

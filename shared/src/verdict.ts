// A run's verdict: metrics measured from the stores, checked against what they should be.
import { z } from 'zod';

/** A measured figure: a count, a time, or a code in words. */
export const MetricValue = z.union([z.string().max(2000), z.number()]);
export type MetricValue = z.infer<typeof MetricValue>;
export const Metrics = z.record(z.string(), MetricValue);
export type Metrics = z.infer<typeof Metrics>;

/** One invariant of a scenario, instantiated for a run's parameters. */
export const Expectation = z.object({
  /** Stable id, e.g. "one-email". */
  id: z.string(),
  metric: z.string(),
  op: z.enum(['eq', 'ne', 'lte', 'gte']),
  value: MetricValue,
  /** The invariant in plain words, e.g. "exactly one report e-mail is sent". */
  text: z.string(),
});
export type Expectation = z.infer<typeof Expectation>;

/** An invariant checked: what the stores gave (absent: the metric was not measured) and whether it held. */
export const ExpectationResult = Expectation.extend({ actual: MetricValue.optional(), held: z.boolean() });
export type ExpectationResult = z.infer<typeof ExpectationResult>;

export const VerdictWord = z.enum(['pass', 'fail']);

export interface Verdict {
  verdict: z.infer<typeof VerdictWord>;
  results: ExpectationResult[];
}

function holds(op: Expectation['op'], actual: MetricValue, expected: MetricValue): boolean {
  switch (op) {
    case 'eq':
      return actual === expected;
    case 'ne':
      return actual !== expected;
    case 'lte':
      return typeof actual === 'number' && typeof expected === 'number' && actual <= expected;
    case 'gte':
      return typeof actual === 'number' && typeof expected === 'number' && actual >= expected;
  }
}

/** Checks measured metrics against a run's expectations; a missing metric fails. */
export function judge(expectations: Expectation[], metrics: Metrics): Verdict {
  const results = expectations.map((e) => {
    const actual = metrics[e.metric];
    return { ...e, actual, held: actual !== undefined && holds(e.op, actual, e.value) };
  });
  return { verdict: results.every((r) => r.held) ? 'pass' : 'fail', results };
}

const opWords: Record<Expectation['op'], string> = {
  eq: 'should be ',
  ne: 'should not be ',
  lte: 'should be at most ',
  gte: 'should be at least ',
};

/** How a metric names its values: "label" and, for codes, their meaning. */
export interface MetricWords {
  label: string;
  meanings?: Record<string, string>;
  /** Only a worker can give this figure: its words say so wherever it is shown. */
  reported?: boolean;
}

/** Said after a figure that only a worker can give (the stores keep no record of it). */
export const REPORTED_WORDS = ' (reported by a worker)';

/** A value in words: "3", or "-1 (no expiry)" when the metric says what the code means. */
export function valueText(metric: MetricWords | undefined, value: MetricValue | undefined): string {
  if (value === undefined) return 'not measured';
  const meaning = metric?.meanings?.[String(value)];
  return meaning ? `${value} (${meaning})` : String(value);
}

/** "should be 1", "should be at most 1", "should not be -1 (no expiry)". */
export function shouldBe(e: Expectation, metric?: MetricWords): string {
  return `${opWords[e.op]}${valueText(metric, e.value)}`;
}

/**
 * A metric and its value in words: "Max concurrent holders: 2"; its name when it has no
 * label; "… (reported by a worker)" when only a worker can give it.
 */
export function metricText(metric: MetricWords | undefined, name: string, value: MetricValue | undefined): string {
  return `${metric?.label ?? name}: ${valueText(metric, value)}${metric?.reported ? REPORTED_WORDS : ''}`;
}

/**
 * One line of a verdict, the same on the page and in the CLI:
 * "E-mails sent: 3 — should be 1", "Lock TTL after run (ms): -2 (no key) — should not be -1 (no expiry)".
 */
export function verdictLine(e: Expectation & { actual?: MetricValue | undefined }, metric: MetricWords | undefined): string {
  return `${metricText(metric, e.metric, e.actual)} — ${shouldBe(e, metric)}`;
}

/**
 * The verdict a run should give at its parameters: a correct variant passes and a broken one
 * fails, unless the variant says why not here (a correct variant whose assumption breaks,
 * e.g. a lease shorter than the work; a broken one with no race to lose).
 */
export const ExpectedVerdict = z.object({
  verdict: VerdictWord,
  /** Why this run is expected to give the other verdict than its kind's, in one line. */
  reason: z.string().optional(),
});
export type ExpectedVerdict = z.infer<typeof ExpectedVerdict>;

/** The expected verdict of a correct or broken variant, given its reason to differ (null: none). */
export function expectedVerdict(correct: boolean, otherwise: string | null): ExpectedVerdict {
  const kind = correct ? 'pass' : 'fail';
  if (otherwise === null) return { verdict: kind };
  return { verdict: kind === 'pass' ? 'fail' : 'pass', reason: otherwise };
}

/** "as expected" / "NOT as expected": the CLI's and the page's words for a verdict against its expectation. */
export function expectationWords(verdict: 'pass' | 'fail', expected: ExpectedVerdict): string {
  return verdict === expected.verdict ? 'as expected' : 'NOT as expected';
}

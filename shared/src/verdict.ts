// A run's verdict: metrics measured from the stores, checked against what they should be.

export type MetricValue = number | string;
export type Metrics = Record<string, MetricValue>;

/** One invariant of a scenario, instantiated for a run's parameters. */
export interface Expectation {
  /** Stable id, e.g. "one-email". */
  id: string;
  metric: string;
  op: 'eq' | 'ne' | 'lte' | 'gte';
  value: MetricValue;
  /** The invariant in plain words, e.g. "exactly one report e-mail is sent". */
  text: string;
}

export interface ExpectationResult extends Expectation {
  actual: MetricValue | undefined;
  held: boolean;
}

export interface Verdict {
  verdict: 'pass' | 'fail';
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
  eq: '',
  ne: 'not ',
  lte: 'at most ',
  gte: 'at least ',
};

/** "should be 1", "should be at most 1", "should be not -1": the page's and the CLI's wording. */
export function shouldBe(e: Expectation): string {
  return `should be ${opWords[e.op]}${e.value}`;
}

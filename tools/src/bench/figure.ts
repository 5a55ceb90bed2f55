// A benchmark's result: one named figure with its samples (one per repetition, or one per
// event for latencies), its unit, and the target when it has one.

export type Stat = 'median' | 'p95' | 'p99' | 'min' | 'max';

export interface Target {
  /** Which statistic of the samples the target is about. */
  stat: Stat;
  op: '<=' | '>=' | '==';
  value: number;
}

export interface Figure {
  /** The section, e.g. "Run overhead". */
  section: string;
  name: string;
  unit: string;
  samples: number[];
  /** What one sample is, e.g. "run", "event", "1 s round". */
  sampleOf: string;
  target?: Target;
  /** Shown in the table's last column: why it was not measured, what it includes. */
  note?: string;
}

/** What a benchmark hands the runner: its figures and the paragraphs BENCHMARKS.md shows under its section. */
export interface BenchResult {
  figures: Figure[];
  /** Markdown: method, what the baseline includes, and profiles of misses. */
  notes: string[];
}

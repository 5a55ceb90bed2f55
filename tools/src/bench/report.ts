// BENCHMARKS.md: the machine, every figure as a table row (median, p99, min–max of its
// samples), which targets were met, and each section's notes (method, baseline, profiles).
import type { BenchResult, Figure, Target } from './figure.js';
import type { Machine } from './benchMachine.js';
import { meets, statOf } from './stats.js';

/** The report's sections, in its order. */
export const SECTIONS = [
  'Run overhead',
  'Event to pixel',
  'Timeline at scale',
  'Static site',
  'Scale of a run',
  'Lock primitive',
  'Start-up',
  'Explore',
];

export function formatNumber(x: number, unit: string): string {
  if (!Number.isFinite(x)) return '—';
  if (unit === '×') return x.toFixed(2);
  const abs = Math.abs(x);
  const text = abs >= 1000 ? Math.round(x).toLocaleString('en-US') : abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : x.toFixed(2);
  return text;
}

function targetText(t: Target, unit: string): string {
  const op = t.op === '<=' ? '≤' : t.op === '>=' ? '≥' : '=';
  return `${t.stat} ${op} ${formatNumber(t.value, unit)}${unit === '×' ? '×' : ` ${unit}`}`;
}

function verdictOf(f: Figure): string {
  if (!f.target) return '';
  const met = meets(f.samples, f.target);
  return met === null ? 'not measured' : met ? 'met' : '**missed**';
}

function row(f: Figure): string {
  const cells = f.samples.length
    ? [
        formatNumber(statOf(f.samples, 'median'), f.unit),
        formatNumber(statOf(f.samples, 'p99'), f.unit),
        `${formatNumber(statOf(f.samples, 'min'), f.unit)} – ${formatNumber(statOf(f.samples, 'max'), f.unit)}`,
      ]
    : ['—', '—', '—'];
  const target = f.target ? `${targetText(f.target, f.unit)}: ${verdictOf(f)}` : '';
  return `| ${f.name} | ${f.unit} | ${cells.join(' | ')} | ${f.samples.length} × ${f.sampleOf} | ${target} | ${f.note ?? ''} |`;
}

export interface Report {
  machine: Machine;
  results: BenchResult[];
  /** Benchmarks that threw, with their error. */
  failures: { bench: string; error: string }[];
  wallSeconds: number;
}

export function renderReport(r: Report): string {
  const figures = r.results.flatMap((x) => x.figures);
  const notes = r.results.flatMap((x) => x.notes.map((n, i) => ({ n, section: x.figures[0]?.section ?? '', i })));
  const m = r.machine;
  const out: string[] = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (tools/src/bench/runner.ts) on ${m.date}, in ${Math.round(r.wallSeconds)} s.`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM (${m.freeGiB} GiB free at the start), load average ${m.loadAvg} at the start; ` +
      `Node ${m.node}, Redis ${m.redis}, PostgreSQL ${m.postgres}, ${m.chromium}. ` +
      `Its speed at the start (medians of 9): starting \`node -e 0\` ${formatNumber(m.nodeStartMs, 'ms')} ms, ` +
      `a fixed piece of JavaScript (20,000 small objects to JSON and back) ${formatNumber(m.jsWorkMs, 'ms')} ms; ` +
      'a report whose figures all moved with these is a slower or faster machine, not other code.',
    '',
    'The machine is shared and noisy: absolute figures move from run to run, ratios measured side by side in the same run are what count. ' +
      'Each figure is a set of samples (one per repetition, or one per event for latencies): median, p99 (nearest rank: with few samples it is the largest) and min–max. ' +
      'A target is checked on the statistic it names. Nothing here is asserted by `npm test`.',
    '',
    '## Targets',
    '',
    '| Figure | Target | Result | |',
    '| --- | --- | --- | --- |',
    ...figures
      .filter((f) => f.target)
      .map(
        (f) =>
          `| ${f.section}: ${f.name} | ${targetText(f.target!, f.unit)} | ${formatNumber(statOf(f.samples, f.target!.stat), f.unit)} | ${verdictOf(f)} |`,
      ),
    '',
  ];
  if (r.failures.length > 0) {
    out.push('## Benchmarks that did not run to the end', '', ...r.failures.map((f) => `- ${f.bench}: ${f.error}`), '');
  }
  for (const section of SECTIONS) {
    const rows = figures.filter((f) => f.section === section);
    const text = notes.filter((n) => n.section === section).map((n) => n.n);
    if (rows.length === 0 && text.length === 0) continue;
    out.push(`## ${section}`, '');
    if (rows.length > 0) {
      out.push(
        '| Figure | unit | median | p99 | min – max | samples | target | note |',
        '| --- | --- | --- | --- | --- | --- | --- | --- |',
        ...rows.map(row),
        '',
      );
    }
    for (const t of text) out.push(t, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

import { describe, expect, it } from 'vitest';
import { keepHandWritten, mergeReport } from './mergeReport.js';

const SECTIONS = ['Run overhead', 'Static site', 'Start-up'];
const report = (date: string, targets: string[], sections: [string, string][]) =>
  [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (tools/src/bench/runner.ts) on ${date}, in 200 s.`,
    '',
    `Machine: a machine of ${date}.`,
    '',
    '## Targets',
    '',
    '| Figure | Target | Result | |',
    '| --- | --- | --- | --- |',
    ...targets,
    '',
    ...sections.flatMap(([title, text]) => [`## ${title}`, '', text, '']),
  ].join('\n');

describe('a partial bench report', () => {
  const previous = report(
    '2026-12-01T00:00:00.000Z',
    ['| Run overhead: ratio | median ≤ 1.10× | 1.05 | met |', '| Static site: JS | max ≤ 200 KB | 250 | **missed** |'],
    [
      ['Run overhead', 'old overhead'],
      ['Static site', 'old site'],
      ['Start-up', 'old start-up'],
    ],
  );
  // As renderReport writes it: the last line ends the file.
  const fresh = `${report('2026-12-04T00:00:00.000Z', ['| Static site: JS | max ≤ 200 KB | 180 | met |'], [['Static site', 'new site']]).trimEnd()}\n`;

  it('replaces the sections it measured and keeps the others, in the report’s order', () => {
    const merged = mergeReport(previous, fresh, SECTIONS);
    expect(merged.match(/^## .*/gm)).toEqual(['## Targets', '## Run overhead', '## Static site', '## Start-up']);
    expect(merged).toContain('old overhead');
    expect(merged).toContain('new site');
    expect(merged).not.toContain('old site');
    expect(merged).toContain('old start-up');
    // The fresh report's last section, now in the middle, keeps its blank line before the next.
    expect(merged).toContain('new site\n\n## Start-up');
    expect(merged.endsWith('old start-up\n')).toBe(true);
  });

  it('keeps the other sections’ targets, takes its own, and says what it measured and since when the rest stands', () => {
    const merged = mergeReport(previous, fresh, SECTIONS);
    expect(merged).toContain('| Run overhead: ratio | median ≤ 1.10× | 1.05 | met |\n| Static site: JS | max ≤ 200 KB | 180 | met |');
    expect(merged).not.toContain('250');
    expect(merged).toContain('on 2026-12-04T00:00:00.000Z, in 200 s.');
    expect(merged).toContain(
      'This run measured Static site (BENCH_ONLY); Run overhead, Start-up are as the report of 2026-12-01T00:00:00.000Z had them.',
    );
  });
});

describe('a section written by hand', () => {
  const previous = report(
    '2026-12-01T00:00:00.000Z',
    [],
    [
      ['Run overhead', 'old overhead'],
      ['Workshop', 'measured with npm run room'],
      ['Start-up', 'old start-up'],
    ],
  );
  const fresh = `${report('2026-12-04T00:00:00.000Z', [], [['Run overhead', 'new overhead']]).trimEnd()}\n`;

  it('stays at the end of a full report and of a merged one', () => {
    const full = keepHandWritten(previous, fresh, SECTIONS);
    expect(full.match(/^## .*/gm)).toEqual(['## Targets', '## Run overhead', '## Workshop']);
    expect(full.endsWith('measured with npm run room\n')).toBe(true);
    const merged = keepHandWritten(previous, mergeReport(previous, fresh, SECTIONS), SECTIONS);
    expect(merged.match(/^## .*/gm)).toEqual(['## Targets', '## Run overhead', '## Start-up', '## Workshop']);
    expect(merged).toContain('new overhead');
  });
});

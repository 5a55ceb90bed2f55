// BENCH_ONLY measures some benchmarks again, not all: the report it writes keeps the sections
// of the others (and their rows of the targets table) as the last report had them, and says
// so under its header, so that one part can be measured anew without the whole bench. A
// section the bench does not write (measured by hand with another command, as the workshop's
// `npm run room`) is kept by every run, partial or full, at the end.

const TARGETS = 'Targets';
const FAILED = 'Benchmarks that did not run to the end';

interface Parsed {
  head: string;
  /** Each `## ` section by its title, its heading included. */
  blocks: Map<string, string>;
}

function parse(markdown: string): Parsed {
  const [head = '', ...parts] = markdown.split(/^(?=## )/m);
  // Each block ends in one blank line, the last of a report too (a report ends in one newline).
  return { head, blocks: new Map(parts.map((part) => [part.slice(3, part.indexOf('\n')).trim(), `${part.trimEnd()}\n\n`])) };
}

const targetRows = (block: string | undefined): string[] =>
  (block ?? '').split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Figure |') && !line.startsWith('| ---'));

/** The report of a partial run (`fresh`) merged into the last one (`previous`); `sections`: every section, in the report's order. */
export function mergeReport(previous: string, fresh: string, sections: readonly string[]): string {
  const p = parse(previous);
  const f = parse(fresh);
  const ran = sections.filter((s) => f.blocks.has(s));
  const kept = sections.filter((s) => !ran.includes(s) && p.blocks.has(s));
  // A partial report merged into again: the kept sections are still the full run's.
  const since = /as the report of (\S+) had them/.exec(p.head)?.[1] ?? /on (\S+), in \d+ s/.exec(p.head)?.[1] ?? 'an earlier run';
  // The kept figures' machine, with its yardsticks: the line of the full run's report.
  const machine = /^Their machine: .*$/m.exec(p.head)?.[0] ?? /^Machine: .*$/m.exec(p.head)?.[0]?.replace(/^Machine: /, 'Their machine: ');
  const head =
    `${f.head.trimEnd()}\n\n` +
    `This run measured ${ran.length > 0 ? ran.join(', ') : 'nothing'} (BENCH_ONLY); ${kept.length > 0 ? `${kept.join(', ')} are as the report of ${since} had them` : 'no other section is kept'}.\n\n` +
    (kept.length > 0 && machine ? `${machine}\n\n` : '');
  const targets = [
    `## ${TARGETS}`,
    '',
    '| Figure | Target | Result | |',
    '| --- | --- | --- | --- |',
    ...targetRows(p.blocks.get(TARGETS)).filter((row) => !ran.some((s) => row.startsWith(`| ${s}: `))),
    ...targetRows(f.blocks.get(TARGETS)),
    '',
    '',
  ].join('\n');
  const body = sections.map((s) => (ran.includes(s) ? f : p).blocks.get(s) ?? '').join('');
  return `${`${head}${targets}${f.blocks.get(FAILED) ?? ''}${body}`.trimEnd()}\n`;
}

/** `fresh` with every section of `previous` that no bench writes (neither `sections`, the targets nor the failures) appended, as it was. */
export function keepHandWritten(previous: string, fresh: string, sections: readonly string[]): string {
  const own = new Set([...sections, TARGETS, FAILED]);
  const written = parse(fresh).blocks;
  const kept = [...parse(previous).blocks].filter(([title]) => !own.has(title) && !written.has(title)).map(([, block]) => block);
  return kept.length === 0 ? fresh : `${`${fresh.trimEnd()}\n\n${kept.join('')}`.trimEnd()}\n`;
}

// The scorecard's two tables in docs/LIBRARIES.md, the lock libraries and the job queues,
// schedulers and poolers: written by `npm run docs` from docs/scorecard.json, which `npm run
// scorecard` measures; a cell that ran links to its run's recording.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cellWords, Scorecard, type CellReading, type StackScorecard } from '@racelab/shared';
import { cell, withSection, type SectionMarkers } from './generatedSection.js';

export const SCORECARD: SectionMarkers = {
  name: 'scorecard',
  file: 'docs/LIBRARIES.md',
  start: '<!-- scorecard: written by `npm run docs` from docs/scorecard.json; do not edit by hand -->',
  end: '<!-- end of scorecard -->',
};

export const STACKS: SectionMarkers = {
  name: 'job queues, schedulers and poolers',
  file: 'docs/LIBRARIES.md',
  start: '<!-- stacks: written by `npm run docs` from docs/scorecard.json; do not edit by hand -->',
  end: '<!-- end of stacks -->',
};

/** A scorecard with no second part (a check of one lock writes none). */
export const NO_STACKS: StackScorecard = { rows: [], faults: [], cells: [] };

/** Where docs/LIBRARIES.md's second part starts, for a link from the README. */
export const STACKS_ANCHOR = 'docs/LIBRARIES.md#job-queues-schedulers-and-poolers-under-faults';

/** The checked-in scorecard (docs/scorecard.json), held to the shared schema. */
export function readScorecard(): Scorecard {
  return Scorecard.parse(JSON.parse(readFileSync(fileURLToPath(new URL('../../../docs/scorecard.json', import.meta.url)), 'utf8')));
}

/** The matrix as a Markdown table (lock × fault), then one line per fault on how it is run. */
export function scorecardTable(card: Scorecard): string {
  const header = `| library | version | ${card.faults.map((f) => f.title).join(' | ')} |`;
  const rule = `|---|---|${card.faults.map(() => '---').join('|')}|`;
  const rows = card.locks.map((lock) => {
    const cells = card.faults.map((fault) => cellText(card.cells.find((x) => x.lock === lock.id && x.fault === fault.id)));
    return `| \`${lock.name}\` | ${lock.version} | ${cells.join(' | ')} |`;
  });
  return [header, rule, ...rows, '', ...mappings(card.faults)].join('\n');
}

/**
 * The second part as a Markdown table (a library as each variant uses it × fault), then how
 * each fault is run, then why each cell with no run has none, once for a library's rows.
 */
export function stacksTable(stacks: StackScorecard): string {
  const header = `| library | version | used as | | ${stacks.faults.map((f) => f.title).join(' | ')} |`;
  const rule = `|---|---|---|---|${stacks.faults.map(() => '---').join('|')}|`;
  const rows = stacks.rows.map((row, i) => {
    const first = stacks.rows[i - 1]?.library !== row.library;
    const cells = stacks.faults.map((fault) => cellText(stacks.cells.find((x) => x.row === row.id && x.fault === fault.id)));
    const library = first ? [`\`${row.library}\``, row.version] : ['', ''];
    return `| ${[...library, `\`${row.variant}\`: ${cell(row.usage)}`, row.correct ? 'correct' : 'broken', ...cells].join(' | ')} |`;
  });
  const reasons = stacks.rows
    .filter((row, i) => stacks.rows[i - 1]?.library !== row.library)
    .flatMap((row) =>
      stacks.faults.flatMap((fault) => {
        const c = stacks.cells.find((x) => x.row === row.id && x.fault === fault.id);
        return c && !c.recording ? [`- \`${row.library}\`, ${fault.title.toLowerCase()}: ${c.verdict}: ${cell(c.note)}.`] : [];
      }),
    );
  return [header, rule, ...rows, '', ...mappings(stacks.faults), '', ...reasons].join('\n').replaceAll(/\| {2}(?=\|)/g, '| ');
}

/** A cell's words, linked from docs/ to its run's recording when it ran; what every lock of its kind gives says so, never "broken". */
function cellText(c: CellReading | undefined): string {
  if (!c) return '';
  const word = cellWords(c);
  return cell(c.recording ? `[${word}](../web/public/recordings/scorecard/${c.recording})` : word);
}

/** One line per fault on how it is run. */
const mappings = (faults: Scorecard['faults']): string[] => faults.map((f) => `- **${f.title}**: ${cell(f.mapping)}.`);

/** docs/LIBRARIES.md with its scorecard sections written anew. */
export function withScorecard(document: string, card: Scorecard): string {
  return withSection(withSection(document, SCORECARD, scorecardTable(card)), STACKS, stacksTable(card.stacks ?? NO_STACKS));
}

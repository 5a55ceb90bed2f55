// The lock-library scorecard of docs/LIBRARIES.md: written by `npm run docs` from
// docs/scorecard.json, which `npm run scorecard` measures; a cell links to its run's recording.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cellWords, Scorecard } from '@racelab/shared';
import { cell, withSection, type SectionMarkers } from './generatedSection.js';

export const SCORECARD: SectionMarkers = {
  name: 'scorecard',
  file: 'docs/LIBRARIES.md',
  start: '<!-- scorecard: written by `npm run docs` from docs/scorecard.json; do not edit by hand -->',
  end: '<!-- end of scorecard -->',
};

/** The checked-in scorecard (docs/scorecard.json), held to the shared schema. */
export function readScorecard(): Scorecard {
  return Scorecard.parse(JSON.parse(readFileSync(fileURLToPath(new URL('../../../docs/scorecard.json', import.meta.url)), 'utf8')));
}

/** The matrix as a Markdown table (lock × fault), then one line per fault on how it is run. */
export function scorecardTable(card: Scorecard): string {
  const header = `| library | version | ${card.faults.map((f) => f.title).join(' | ')} |`;
  const rule = `|---|---|${card.faults.map(() => '---').join('|')}|`;
  const rows = card.locks.map((lock) => {
    const cells = card.faults.map((fault) => {
      const c = card.cells.find((x) => x.lock === lock.id && x.fault === fault.id);
      if (!c) return '';
      // What every lock of its kind gives there, in fair words: never "broken" for what it never promised.
      // The link goes from docs/ to the recording.
      const word = cellWords(c);
      return c.recording ? `[${word}](../web/public/recordings/scorecard/${c.recording})` : word;
    });
    return `| \`${lock.name}\` | ${lock.version} | ${cells.map(cell).join(' | ')} |`;
  });
  const mappings = card.faults.map((f) => `- **${f.title}**: ${cell(f.mapping)}.`);
  return [header, rule, ...rows, '', ...mappings].join('\n');
}

/** docs/LIBRARIES.md with its scorecard section written anew. */
export function withScorecard(document: string, card: Scorecard): string {
  return withSection(document, SCORECARD, scorecardTable(card));
}

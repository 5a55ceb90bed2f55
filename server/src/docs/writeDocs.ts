// npm run docs: writes the generated sections of racelab's documents from the scenario
// folders and docs/scorecard.json: the README's scenario table (variants and their figures at
// the defaults), docs/FIGURES.md's table of how each figure is observed, docs/LIBRARIES.md's
// scorecard of lock libraries and of job queues, schedulers and poolers under faults, and
// docs/EXERCISES.md's table of exercises.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadCatalog } from '../scenarios/registry.js';
import { EXERCISES, exerciseTable } from './exerciseTable.js';
import { FIGURES, figureTable } from './figureTable.js';
import { documentPath, withSection, type SectionMarkers } from './generatedSection.js';
import { SCENARIOS, scenarioTable } from './scenarioTable.js';
import { NO_STACKS, readScorecard, SCORECARD, scorecardTable, STACKS, stacksTable } from './scorecardTable.js';

const catalog = await loadCatalog();
const card = readScorecard();
const sections: [SectionMarkers, string][] = [
  [SCENARIOS, scenarioTable(catalog, card.stacks)],
  [FIGURES, figureTable(catalog.manifests)],
  [SCORECARD, scorecardTable(card)],
  [STACKS, stacksTable(card.stacks ?? NO_STACKS)],
  [EXERCISES, exerciseTable(catalog)],
];
for (const file of new Set(sections.map(([markers]) => markers.file))) {
  const before = readFileSync(documentPath(file), 'utf8');
  const after = sections.filter(([m]) => m.file === file).reduce((text, [markers, body]) => withSection(text, markers, body), before);
  writeFileSync(documentPath(file), after);
  console.log(before === after ? `${file}: up to date` : `${file}: generated sections written anew`);
}

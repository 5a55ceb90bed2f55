// npm run docs: writes the README's generated sections from the scenario folders: the
// scenario table (variants and their figures at the defaults) and how each figure is observed.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../scenarios/registry.js';
import { withFigures } from './figureTable.js';
import { withScenarios } from './scenarioTable.js';
import { readScorecard, withScorecard } from './scorecardTable.js';

const readmePath = fileURLToPath(new URL('../../../README.md', import.meta.url));
const catalog = await loadCatalog();
const before = readFileSync(readmePath, 'utf8');
const after = withScorecard(withFigures(withScenarios(before, catalog), catalog.manifests), readScorecard());
writeFileSync(readmePath, after);
console.log(before === after ? 'README.md: up to date' : 'README.md: generated sections written anew');

// npm run docs: writes the README's generated sections from the scenarios' manifests.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../scenarios/registry.js';
import { withFigures } from './figureTable.js';

const readmePath = fileURLToPath(new URL('../../../README.md', import.meta.url));
const { manifests } = await loadCatalog();
const before = readFileSync(readmePath, 'utf8');
const after = withFigures(before, manifests);
writeFileSync(readmePath, after);
console.log(before === after ? 'README.md: up to date' : 'README.md: figures written anew');

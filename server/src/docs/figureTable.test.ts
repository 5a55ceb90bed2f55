// The README's "How each figure is observed" says what the manifests say: a metric added,
// renamed or observed another way without `npm run docs` fails here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../scenarios/registry.js';
import { figureTable, withFigures } from './figureTable.js';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
const { manifests } = await loadCatalog();

describe('How each figure is observed', () => {
  it('is up to date in the README (run `npm run docs` after changing a metric)', () => {
    expect(withFigures(readme, manifests)).toBe(readme);
  });

  it('names the store and the mechanism of every metric of every scenario', () => {
    const unsaid = manifests.flatMap((m) => m.metrics.filter((x) => !x.source || !x.source.includes(':')).map((x) => `${m.id}/${x.name}`));
    expect(unsaid).toEqual([]);
    expect(figureTable(manifests).split('\n')).toHaveLength(2 + manifests.reduce((n, m) => n + m.metrics.length, 0));
  });
});

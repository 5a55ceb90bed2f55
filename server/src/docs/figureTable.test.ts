// docs/FIGURES.md, "How each figure is observed", says what the manifests say: a metric
// added, renamed or observed another way without `npm run docs` fails here.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../scenarios/registry.js';
import { FIGURES, figureTable, withFigures } from './figureTable.js';
import { readDocument } from './generatedSection.js';

const page = readDocument(FIGURES);
const { manifests } = await loadCatalog();

describe('How each figure is observed', () => {
  it('is up to date in docs/FIGURES.md (run `npm run docs` after changing a metric)', () => {
    expect(withFigures(page, manifests)).toBe(page);
  });

  it('names the store and the mechanism of every metric of every scenario', () => {
    const unsaid = manifests.flatMap((m) => m.metrics.filter((x) => !x.source || !x.source.includes(':')).map((x) => `${m.id}/${x.name}`));
    expect(unsaid).toEqual([]);
    expect(figureTable(manifests).split('\n')).toHaveLength(2 + manifests.reduce((n, m) => n + m.metrics.length, 0));
  });
});

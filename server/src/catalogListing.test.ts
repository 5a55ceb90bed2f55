// `--list` says, for every scenario of the catalog, each variant with its kind and title and
// each parameter with its default and its bounds.
import { describeBounds, formatParam } from '@racelab/shared';
import { describe, expect, it } from 'vitest';
import { catalogListing } from './catalogListing.js';
import { loadCatalog } from './scenarios/registry.js';

const { manifests } = await loadCatalog();
const lines = catalogListing(manifests).split('\n');

describe('the catalog listing', () => {
  it('has a line per scenario, variant and parameter', () => {
    expect(lines).toHaveLength(manifests.reduce((n, m) => n + 1 + m.variants.length + m.params.length, 0));
  });

  it.each(manifests.map((m) => [m.id, m] as const))('%s: every variant with its title, every parameter with its bounds', (_id, m) => {
    expect(lines).toContain(`${m.id}: ${m.title}`);
    for (const v of m.variants) {
      expect(lines.some((l) => l.startsWith(`  --variant ${v.id} (${v.correct ? 'correct' : 'broken'}) `) && l.includes(v.title))).toBe(
        true,
      );
    }
    for (const p of m.params) {
      expect(
        lines.some((l) => l.startsWith(`  --param ${p.name}=${formatParam(p.default)} `) && l.endsWith(`: ${describeBounds(p)}`)),
      ).toBe(true);
    }
  });

  it("shows a variant's own defaults beside it", () => {
    expect(lines.find((l) => l.startsWith('  --variant blind-del '))).toMatch(/\[arrival=late leaseMs=1000 workMs=1500\]$/);
  });
});

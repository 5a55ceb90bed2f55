import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SITE_CATALOG_FILE, SITE_META_NAME, SiteCatalog } from '@racelab/shared';
import { loadCatalog } from '@racelab/server';
import { siteIndexHtml } from './indexHtml.js';
import { siteCatalogOf } from './siteCatalog.js';

const RECORDINGS = fileURLToPath(new URL('../../../web/public/recordings/', import.meta.url));
const read = (file: string) => readFileSync(join(RECORDINGS, file), 'utf8');
const index = read('index.json');

describe("the site's catalog", () => {
  it('holds the scenarios in teaching order and, for every shipped recording, the variant it shows', async () => {
    const { manifests } = await loadCatalog();
    const site = SiteCatalog.parse(siteCatalogOf(manifests, index, read));
    expect(site.scenarios.map((s) => s.id)).toEqual(manifests.map((s) => s.id));
    // Everything but the code, which each recording brings with its scenario's manifest.
    expect(site.scenarios).toEqual(manifests.map((s) => ({ ...s, variants: s.variants.map((v) => ({ ...v, code: '' })) })));
    expect(site.recordings.map((r) => r.file)).toEqual((JSON.parse(index) as { file: string }[]).map((r) => r.file));
    for (const r of site.recordings) {
      // The title says the verdict the run ended with: PASS for a correct variant, FAIL for a broken one.
      expect(r.title.endsWith(r.correct ? 'PASS' : 'FAIL'), r.file).toBe(true);
      expect(r.file).toBe(`${r.scenario}-${r.variant}.json`);
      const carried = JSON.parse(read(r.file)) as { scenario: { variants: { id: string; code: string }[] } };
      expect(carried.scenario.variants.find((v) => v.id === r.variant)?.code, r.file).toMatch(/\S/);
    }
  });

  it('refuses a recording that does not read, or of a variant the catalog lacks, naming the file', async () => {
    const { manifests } = await loadCatalog();
    const oneFile = JSON.stringify([{ file: 'fencing-fenced.json', title: 'Fencing tokens: fenced (correct) — PASS' }]);
    expect(() => siteCatalogOf(manifests, oneFile, () => '{"format":"nope"}')).toThrow(
      /recordings\/fencing-fenced\.json: not a racelab recording/,
    );
    const withoutFenced = manifests.map((s) => (s.id === 'fencing' ? { ...s, variants: s.variants.filter((v) => v.id !== 'fenced') } : s));
    expect(() => siteCatalogOf(withoutFenced, oneFile, read)).toThrow(/fencing\/fenced is not in the catalog/);
  });
});

describe("the site's index.html", () => {
  const page = '<!doctype html>\n<html>\n  <head>\n    <title>racelab</title>\n  </head>\n  <body></body>\n</html>\n';

  it('names the catalog in the tag that makes the page the site, and preloads it', () => {
    const html = siteIndexHtml(page);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<meta name="${SITE_META_NAME}" content="${SITE_CATALOG_FILE}" />`);
    expect(head).toContain(`<link rel="preload" href="${SITE_CATALOG_FILE}" as="fetch" type="application/json" crossorigin />`);
    // Nothing else changes: the page is the live page's own.
    expect(html.replace(/ {2}<meta name="racelab-site"[^>]*>\n {4}<link rel="preload"[^>]*>\n {2}/, '')).toBe(page);
  });

  it('refuses a page with no head, or one that is already the site', () => {
    expect(() => siteIndexHtml('<html><body></body></html>')).toThrow(/no <\/head>/);
    expect(() => siteIndexHtml(siteIndexHtml(page))).toThrow(/already a site build/);
  });
});

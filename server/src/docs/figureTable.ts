// The table of docs/FIGURES.md, "How each figure is observed", written from the scenarios'
// manifests: each metric, the store it comes from and the mechanism, so the page cannot drift
// from what the code measures. `npm run docs` writes it; a test fails when it is stale.
import { REPORTED_WORDS, type ScenarioManifest } from '@racelab/shared';
import { cell, withSection, type SectionMarkers } from './generatedSection.js';

export const FIGURES: SectionMarkers = {
  name: 'figures',
  file: 'docs/FIGURES.md',
  start: '<!-- figures: written by `npm run docs` from the manifests; do not edit by hand -->',
  end: '<!-- end of figures -->',
};

/** The table, one row per metric of every scenario, in teaching order. */
export function figureTable(manifests: readonly ScenarioManifest[]): string {
  const rows = ['| scenario | figure | observed by | how |', '|---|---|---|---|'];
  for (const m of manifests) {
    for (const [i, metric] of m.metrics.entries()) {
      const source = metric.source ?? 'not said';
      const colon = source.indexOf(':');
      const [store, how] = colon > 0 ? [source.slice(0, colon), source.slice(colon + 1).trim()] : ['', source];
      const reported = metric.reported ? REPORTED_WORDS : '';
      rows.push(`| ${i === 0 ? m.id : ''} | ${cell(metric.label)} | ${cell(store)}${reported} | ${cell(how)} |`);
    }
  }
  return rows.join('\n');
}

/** docs/FIGURES.md with its figures section written anew; throws when the markers are missing. */
export function withFigures(document: string, manifests: readonly ScenarioManifest[]): string {
  return withSection(document, FIGURES, figureTable(manifests));
}

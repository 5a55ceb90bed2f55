// The README's table "How each figure is observed", written from the scenarios' manifests:
// each metric, the store it comes from and the mechanism, so the README cannot drift from
// what the code measures. `npm run docs` writes it; a test fails when the README is stale.
import { REPORTED_WORDS, type ScenarioManifest } from '@racelab/shared';
import { cell, withSection, type SectionMarkers } from './readmeSection.js';

export const FIGURES: SectionMarkers = {
  name: 'figures',
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

/** The README with its figures section written anew; throws when the markers are missing. */
export function withFigures(readme: string, manifests: readonly ScenarioManifest[]): string {
  return withSection(readme, FIGURES, figureTable(manifests));
}

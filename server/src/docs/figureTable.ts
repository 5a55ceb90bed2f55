// The README's table "How each figure is observed", written from the scenarios' manifests:
// each metric, the store it comes from and the mechanism, so the README cannot drift from
// what the code measures. `npm run docs` writes it; a test fails when the README is stale.
import type { ScenarioManifest } from '@racelab/shared';

export const FIGURES_START = '<!-- figures: written by `npm run docs` from the manifests; do not edit by hand -->';
export const FIGURES_END = '<!-- end of figures -->';

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The table, one row per metric of every scenario, in teaching order. */
export function figureTable(manifests: readonly ScenarioManifest[]): string {
  const rows = ['| scenario | figure | observed by | how |', '|---|---|---|---|'];
  for (const m of manifests) {
    for (const [i, metric] of m.metrics.entries()) {
      const source = metric.source ?? 'not said';
      const colon = source.indexOf(':');
      const [store, how] = colon > 0 ? [source.slice(0, colon), source.slice(colon + 1).trim()] : ['', source];
      const reported = metric.reported ? ' (reported by a worker)' : '';
      rows.push(`| ${i === 0 ? m.id : ''} | ${cell(metric.label)} | ${cell(store)}${reported} | ${cell(how)} |`);
    }
  }
  return rows.join('\n');
}

/** The README with its figures section written anew; throws when the markers are missing. */
export function withFigures(readme: string, manifests: readonly ScenarioManifest[]): string {
  const start = readme.indexOf(FIGURES_START);
  const end = readme.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new Error('the README has no figures section (its markers are missing)');
  return `${readme.slice(0, start + FIGURES_START.length)}\n${figureTable(manifests)}\n${readme.slice(end)}`;
}

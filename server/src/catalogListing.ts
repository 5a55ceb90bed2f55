// `npm run scenario -- --list`: every scenario, its variants with their one-line titles and
// the defaults each sets over the scenario's, and its parameters with their bounds, in the
// words the error messages use.
import { describeBounds, formatParam, type Params, type ScenarioManifest } from '@racelab/shared';

const assignments = (params: Params): string =>
  Object.entries(params)
    .map(([name, value]) => `${name}=${formatParam(value)}`)
    .join(' ');

/** The listing, one line per scenario, variant and parameter. */
export function catalogListing(manifests: readonly ScenarioManifest[]): string {
  const lines: string[] = [];
  for (const m of manifests) {
    lines.push(`${m.id}: ${m.title}`);
    const kinds = m.variants.map((v) => `${v.id} (${v.correct ? 'correct' : 'broken'})`);
    const kindWidth = Math.max(...kinds.map((k) => k.length));
    for (const [i, v] of m.variants.entries()) {
      const own = Object.keys(v.defaults).length > 0 ? `  [${assignments(v.defaults)}]` : '';
      lines.push(`  --variant ${kinds[i]!.padEnd(kindWidth + 2)}${v.title}${own}`);
    }
    const defaults = m.params.map((p) => `${p.name}=${formatParam(p.default)}`);
    const defaultWidth = Math.max(...defaults.map((d) => d.length));
    for (const [i, p] of m.params.entries()) {
      lines.push(
        `  --param ${defaults[i]!.padEnd(defaultWidth + 2)}${p.label}${'unit' in p && p.unit ? ` (${p.unit})` : ''}: ${describeBounds(p)}`,
      );
    }
  }
  return lines.join('\n');
}

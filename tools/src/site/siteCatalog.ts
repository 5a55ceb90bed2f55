// The static site's catalog (recordings/catalog.json): the scenarios as the server's registry
// lists them, in teaching order (their variants' code left to the recordings), and which
// shipped recording shows which of their variants, read from each recording itself (not
// guessed from its file name).
import {
  parseRecording,
  ShippedRecordingIndex,
  SITE_CATALOG_FORMAT,
  type ScenarioManifest,
  type SiteCatalog,
  type SiteRecording,
} from '@racelab/shared';

/** Reads a file of the recordings folder as text. */
export type ReadRecording = (file: string) => string;

/** The site's catalog; throws, naming the file, when a shipped recording does not read or names a variant the catalog lacks. */
export function siteCatalogOf(scenarios: readonly ScenarioManifest[], indexText: string, read: ReadRecording): SiteCatalog {
  const index = ShippedRecordingIndex.parse(JSON.parse(indexText));
  const recordings = index.map(({ file, title }): SiteRecording => {
    const parsed = parseRecording(read(file));
    if (!parsed.ok) throw new Error(`recordings/${file}: ${parsed.error}`);
    const { scenario, variant } = parsed.recording;
    const manifest = scenarios.find((s) => s.id === scenario.id);
    const known = manifest?.variants.find((v) => v.id === variant);
    if (!manifest || !known) throw new Error(`recordings/${file}: ${scenario.id}/${variant} is not in the catalog (npm run recordings)`);
    return { file, title, scenario: scenario.id, variant, correct: known.correct };
  });
  // Without the variants' code, a third of the catalog's bytes: each recording carries its
  // scenario's manifest, the code that ran included, and the page takes it from there.
  const withoutCode = scenarios.map((s) => ({ ...s, variants: s.variants.map((v) => ({ ...v, code: '' })) }));
  return { format: SITE_CATALOG_FORMAT, version: 1, scenarios: withoutCode, recordings };
}

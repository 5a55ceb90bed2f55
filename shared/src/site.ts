// The static site (npm run site): the page's own build, plus the catalog written at build
// time from the server's scenario registry, so that the page needs no server to list the
// scenarios. The site's index.html carries one tag that names the catalog; the page the
// live server serves has none, so it never takes itself for the site.
import { z } from 'zod';
import { ScenarioManifest } from './catalog.js';

/** The name of the site's `<meta>` tag; its content is the catalog's URL, relative to the page. */
export const SITE_META_NAME = 'racelab-site';
/** Where the site's catalog is, relative to index.html (beside recordings/index.json). */
export const SITE_CATALOG_FILE = 'recordings/catalog.json';
export const SITE_CATALOG_FORMAT = 'racelab-site-catalog';

const SiteRecording = z.object({
  /** The file in the recordings folder. */
  file: z.string().max(200),
  title: z.string().max(300),
  scenario: z.string().max(100),
  variant: z.string().max(100),
  /** Whether the variant is a correct one (a recording of it passes). */
  correct: z.boolean(),
});
export type SiteRecording = z.infer<typeof SiteRecording>;

/** The site's catalog file: the scenarios in teaching order, as the server lists them, and which shipped recording shows which variant. */
export const SiteCatalog = z.object({
  format: z.literal(SITE_CATALOG_FORMAT),
  version: z.literal(1),
  scenarios: z.array(ScenarioManifest).max(200),
  recordings: z.array(SiteRecording).max(1000),
});
export type SiteCatalog = z.infer<typeof SiteCatalog>;

// The site's index.html: the page's own, with the tag that makes it the site (the catalog's
// URL, ../../../shared/src/site.ts) and a preload of that catalog, so that it downloads beside
// the page's script instead of after it.
import { SITE_CATALOG_FILE, SITE_META_NAME } from '@racelab/shared';

/** index.html of the live page, made the site's; throws when it has no </head> to write before. */
export function siteIndexHtml(html: string): string {
  if (html.includes(`name="${SITE_META_NAME}"`)) throw new Error('index.html is already a site build');
  const at = html.indexOf('</head>');
  if (at < 0) throw new Error('index.html has no </head>');
  const tags =
    `  <meta name="${SITE_META_NAME}" content="${SITE_CATALOG_FILE}" />\n` +
    // crossorigin: fetch() asks in cors mode, and a preload is used only by a request of the same mode.
    `    <link rel="preload" href="${SITE_CATALOG_FILE}" as="fetch" type="application/json" crossorigin />\n  `;
  return `${html.slice(0, at)}${tags}${html.slice(at)}`;
}

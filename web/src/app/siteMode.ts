// Which way the page gets its events: from the server's socket, or (the static site) from
// shipped recordings alone. The site's index.html names its catalog in a <meta> tag that the
// site's builder writes (tools/src/site); the page the live server serves has none, so it
// never falls back to the site's ways, and the site never looks for a server.
import { SITE_META_NAME } from '@racelab/shared';

/** The site's catalog URL when this page is the static site; null on the live server. */
export function siteCatalogUrl(doc: Document = document): string | null {
  const content = doc.querySelector(`meta[name="${SITE_META_NAME}"]`)?.getAttribute('content');
  return content ? new URL(content, doc.baseURI).toString() : null;
}

/** The page is the static site: no server, no socket, every run a shipped recording. */
export const isSite = (doc: Document = document): boolean => siteCatalogUrl(doc) !== null;

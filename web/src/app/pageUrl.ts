// URLs of the page's own files and server, relative to the page: the same build works at a
// host's root and under a sub-path (a static host's /racelab/, a proxy's prefix).

/** `path` beside the page: '/api/x' and 'api/x' both mean api/x next to index.html. */
export function pageUrl(path: string, base: string = document.baseURI): string {
  return new URL(path.replace(/^\/+/, ''), base).toString();
}

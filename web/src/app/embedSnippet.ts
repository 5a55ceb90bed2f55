// The <iframe> that embeds what is on screen: the embed view (?embed=1) of the same page,
// with the recording or the live run, the setup and the moment of the page's link. Pure:
// the page's address and the setup come in, the HTML text goes out.
import { writeSetup, type UrlSetup } from '../model/urlState.js';

export interface SnippetInput {
  /** The page's address (its query and hash are replaced). */
  pageUrl: string;
  setup: UrlSetup;
  /** The host page's origin, which the embed then takes commands from (postMessage). */
  hostOrigin?: string;
  title: string;
  width?: number;
  height?: number;
}

/** The embed's address for a setup: what shows the run, never how the page looks around it. */
export function embedUrl(pageUrl: string, setup: UrlSetup, hostOrigin?: string): string {
  const { presenter: _p, chapter: _c, scorecard: _s, compare: _x, embed: _e, origin: _o, ...shown } = setup;
  const url = new URL(pageUrl);
  url.hash = '';
  url.search = writeSetup({ ...shown, embed: true, ...(hostOrigin ? { origin: hostOrigin } : {}) });
  return url.toString();
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The HTML to paste into a blog post or a slide. */
export function embedSnippet(input: SnippetInput): string {
  const { width = 800, height = 450 } = input;
  const src = embedUrl(input.pageUrl, input.setup, input.hostOrigin);
  return (
    `<iframe src="${escapeAttribute(src)}" width="${width}" height="${height}" ` +
    `title="${escapeAttribute(`racelab: ${input.title}`)}" style="border:0" loading="lazy"></iframe>`
  );
}

// Whom an embed listens to and reports to. The embedder names its origin in the iframe's
// address (`&origin=https://blog.example`); with none named, only a page of the embed's own
// origin. A command counts only when it comes from that origin and from the window that
// frames the embed (not a sibling frame, a popup or the embed itself); reports go only to
// that window, addressed to that origin, so no other page can read them.

/** The one origin the embed trusts: the named one, else its own. */
export function trustedOrigin(named: string | undefined, own: string): string {
  return named ?? own;
}

export interface MessageLike {
  origin: string;
  source: unknown;
}

/** Why a message is not taken, or null when it is: from the trusted origin and from the parent window. */
export function distrust(message: MessageLike, trusted: string, parent: unknown): string | null {
  if (message.origin !== trusted) return `from ${message.origin || 'an unknown origin'}, not ${trusted}`;
  if (message.source !== parent || parent === null) return 'not from the page that frames the embed';
  return null;
}

// Connection strings and passwords never reach a page or a log: every error text that
// leaves the server (run-failed messages, error replies, log lines) goes through this.
import { redactUrl } from '../services/redactUrl.js';

export type Redactor = (text: string) => string;

/** A redactor that hides these URLs (shown redacted instead) and their passwords wherever they appear. */
export function secretRedactor(urls: string[]): Redactor {
  const replacements: Array<[string, string]> = [];
  for (const url of urls) {
    replacements.push([url, redactUrl(url)]);
    let password = '';
    try {
      const parsed = new URL(url);
      password = parsed.password || parsed.searchParams.get('password') || '';
    } catch {
      password = /\/\/[^/:@]*:([^@/]*)@/.exec(url)?.[1] ?? '';
    }
    // A very short password would turn every matching letter into ***; the userinfo
    // pattern below still catches it inside any URL.
    if (password.length >= 4) {
      replacements.push([password, '***']);
      try {
        const decoded = decodeURIComponent(password);
        if (decoded !== password) replacements.push([decoded, '***']);
      } catch {
        // Not percent-encoded: the raw form is already covered.
      }
    }
  }
  return (text) => {
    let out = text;
    for (const [secret, shown] of replacements) out = out.split(secret).join(shown);
    // Any other URL with a password in it, e.g. one a driver quotes back.
    return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]*@/gi, '$1***@');
  };
}

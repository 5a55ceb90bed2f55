// Who may talk to the server: the Host a browser asked for and the Origin of the page
// that opens the WebSocket. Host names are limited to localhost, IP literals and the ones
// named in RACELAB_ALLOWED_HOSTS, so a foreign site cannot rebind its own domain name to
// 127.0.0.1 and drive the playground from a visitor's browser (DNS rebinding).
import { isIP } from 'node:net';

/** The host name of a Host header ("127.0.0.1:7070", "[::1]:7070", "localhost"), lower-cased; null when malformed. */
export function hostName(host: string | undefined): string | null {
  if (!host || host.length > 255) return null;
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  } catch {
    return null;
  }
}

/** Is this Host header one the server answers to? */
export function isAllowedHost(host: string | undefined, allowed: readonly string[] = []): boolean {
  const name = hostName(host);
  if (name === null) return false;
  return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || allowed.some((a) => a.toLowerCase() === name);
}

/** Host names from a comma-separated list (RACELAB_ALLOWED_HOSTS). */
export function parseAllowedHosts(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Why an upgrade (or a POST) is refused, or undefined when it may go ahead: the Host must be allowed and
 * a browser's Origin must be this very server (same host and port). Clients that send no
 * Origin (the CLI, tests, curl) are not browsers and cannot be driven by a foreign page.
 */
export function refuseUpgrade(headers: { host?: string; origin?: string }, allowed: readonly string[] = []): string | undefined {
  if (!isAllowedHost(headers.host, allowed)) return `unknown Host '${String(headers.host).slice(0, 100)}'`;
  if (headers.origin === undefined) return undefined;
  let origin: URL;
  try {
    origin = new URL(headers.origin);
  } catch {
    return `foreign Origin '${headers.origin.slice(0, 100)}'`;
  }
  if ((origin.protocol !== 'http:' && origin.protocol !== 'https:') || origin.host !== headers.host?.toLowerCase()) {
    return `foreign Origin '${headers.origin.slice(0, 100)}'`;
  }
  return undefined;
}

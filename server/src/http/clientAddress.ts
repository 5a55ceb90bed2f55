// The address a page is counted under (the per-address run cap, the exercises' checks).
// Behind a reverse proxy every connection comes from the proxy, so a room of pages would
// share one address's runs. RACELAB_TRUSTED_PROXIES names the proxies (IP addresses, or IPv4
// ranges such as 172.16.0.0/12) whose X-Forwarded-For is believed: only for a connection
// from one of them is the header read, and only its last address, the one that proxy
// appended (the ones before it are whatever the client sent). From anyone else the header
// is ignored, so a page cannot choose the address it is counted under.
import type { IncomingMessage } from 'node:http';
import { isIP, isIPv4 } from 'node:net';

/** One trusted proxy: an exact address, or an IPv4 range. */
export type TrustedProxy = { address: string } | { network: number; mask: number };

/** The proxies whose X-Forwarded-For is believed; none by default. */
export type TrustedProxies = readonly TrustedProxy[];

/** Reads RACELAB_TRUSTED_PROXIES (comma-separated addresses or IPv4 CIDR ranges); throws naming an entry it cannot read. */
export function parseTrustedProxies(list: string | undefined): TrustedProxy[] {
  const entries = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    const range = /^([0-9.]+)\/(\d{1,2})$/.exec(entry);
    if (range && isIPv4(range[1]!) && Number(range[2]) <= 32) {
      const bits = Number(range[2]);
      // A /0 keeps no bit; shifting a 32-bit number by 32 would keep them all.
      const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
      return { network: (ipv4Number(range[1]!) & mask) >>> 0, mask };
    }
    if (isIP(entry) !== 0) return { address: plain(entry) };
    throw new Error(`RACELAB_TRUSTED_PROXIES: '${entry.slice(0, 100)}' is neither an IP address nor an IPv4 range like 172.16.0.0/12`);
  });
}

/** Is `address` one of the trusted proxies? */
export function isTrustedProxy(address: string, trusted: TrustedProxies): boolean {
  const peer = plain(address);
  const v4 = isIPv4(peer) ? ipv4Number(peer) : null;
  return trusted.some((proxy) => ('address' in proxy ? proxy.address === peer : v4 !== null && (v4 & proxy.mask) >>> 0 === proxy.network));
}

/**
 * The address a request is counted under: the connection's own, unless it comes from a
 * trusted proxy whose X-Forwarded-For ends in a well-formed address; then that address.
 */
export function clientAddress(request: IncomingMessage, trusted: TrustedProxies): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  if (trusted.length === 0 || !isTrustedProxy(peer, trusted)) return peer;
  // Node joins repeated X-Forwarded-For headers with commas, in order: the last entry is still the proxy's.
  const header = request.headers['x-forwarded-for'];
  const last = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').pop()?.trim() ?? '';
  return isIP(last) !== 0 ? last : peer;
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as the IPv4 address it is; others as written, lower-cased. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped && isIPv4(mapped[1]!) ? mapped[1]! : address.toLowerCase();
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

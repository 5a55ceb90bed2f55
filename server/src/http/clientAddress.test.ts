// Whose address a request is counted under: a spoofed X-Forwarded-For from a peer that is no
// trusted proxy is ignored, a trusted proxy's last hop is used, a malformed header is ignored,
// and trusted ranges match IPv4 addresses (mapped ones too) by their prefix only.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, isTrustedProxy, parseTrustedProxies } from './clientAddress.js';

function request(remoteAddress: string | undefined, forwardedFor?: string | string[]): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe('clientAddress', () => {
  const trusted = parseTrustedProxies('127.0.0.1, 10.1.2.3');

  it("ignores X-Forwarded-For from a peer that is no trusted proxy, and everyone's when none is trusted", () => {
    expect(clientAddress(request('203.0.113.9', '198.51.100.1'), trusted)).toBe('203.0.113.9');
    expect(clientAddress(request('127.0.0.1', '198.51.100.1'), [])).toBe('127.0.0.1');
    expect(clientAddress(request(undefined, '198.51.100.1'), trusted)).toBe('unknown');
  });

  it("uses the last address of a trusted proxy's X-Forwarded-For, the one it appended", () => {
    expect(clientAddress(request('127.0.0.1', '198.51.100.7'), trusted)).toBe('198.51.100.7');
    // The client's own header comes first; the proxy's address for it last.
    expect(clientAddress(request('10.1.2.3', '1.1.1.1, 198.51.100.7'), trusted)).toBe('198.51.100.7');
    expect(clientAddress(request('::ffff:127.0.0.1', ['6.6.6.6', '2001:db8::5']), trusted)).toBe('2001:db8::5');
    expect(clientAddress(request('127.0.0.1'), trusted)).toBe('127.0.0.1');
  });

  it("ignores a trusted proxy's header when its last entry is no address", () => {
    for (const header of ['', 'unknown', '198.51.100.7,', '198.51.100.7:4711', '1.1.1.1, not-an-address', '999.1.1.1']) {
      expect(clientAddress(request('127.0.0.1', header), trusted), header).toBe('127.0.0.1');
    }
  });
});

describe('trusted proxies', () => {
  it('matches IPv4 ranges by their prefix, mapped addresses as IPv4, and exact IPv6 addresses', () => {
    const trusted = parseTrustedProxies('172.16.0.0/12,192.168.1.0/24,::1');
    expect(isTrustedProxy('172.16.0.1', trusted)).toBe(true);
    expect(isTrustedProxy('172.31.255.254', trusted)).toBe(true);
    expect(isTrustedProxy('::ffff:172.20.0.5', trusted)).toBe(true);
    expect(isTrustedProxy('172.32.0.1', trusted)).toBe(false);
    expect(isTrustedProxy('172.15.255.255', trusted)).toBe(false);
    expect(isTrustedProxy('192.168.1.200', trusted)).toBe(true);
    expect(isTrustedProxy('192.168.2.1', trusted)).toBe(false);
    expect(isTrustedProxy('::1', trusted)).toBe(true);
    expect(isTrustedProxy('::2', trusted)).toBe(false);
    expect(isTrustedProxy('10.0.0.1', parseTrustedProxies('0.0.0.0/0'))).toBe(true);
    expect(isTrustedProxy('10.0.0.1', parseTrustedProxies('10.0.0.1/32'))).toBe(true);
    expect(isTrustedProxy('10.0.0.2', parseTrustedProxies('10.0.0.1/32'))).toBe(false);
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' , ')).toEqual([]);
  });

  it('refuses an entry that is neither an address nor an IPv4 range', () => {
    for (const entry of ['proxy.example', '10.0.0.0/33', '10.0.0/8', '2001:db8::/32', '10.0.0.1/']) {
      expect(() => parseTrustedProxies(`127.0.0.1,${entry}`), entry).toThrow(/RACELAB_TRUSTED_PROXIES: .* is neither/);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { frameAncestors, securityHeaders } from './securityHeaders.js';

describe('security headers', () => {
  it('lets only the page itself frame it by default', () => {
    expect(frameAncestors(undefined)).toBe("'self'");
    expect(securityHeaders(frameAncestors(undefined))['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  it('adds the origins RACELAB_FRAME_ANCESTORS names, and drops anything that is not an origin', () => {
    expect(frameAncestors('https://slides.example.com, http://localhost:8080 javascript:alert(1) ;default-src *')).toBe(
      "'self' https://slides.example.com http://localhost:8080",
    );
    expect(frameAncestors("'none'")).toBe("'none'");
  });

  it('loads scripts only from the page, connects only to its own server, and says nosniff', () => {
    const headers = securityHeaders("'self'");
    expect(headers['content-security-policy']).toMatch(/script-src 'self';.*connect-src 'self';.*object-src 'none'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});

import { describe, expect, it } from 'vitest';
import { distrust, trustedOrigin } from './trust.js';

describe('whom an embed trusts', () => {
  const parent = { name: 'the host page' };
  const sibling = { name: 'another frame of the host page' };

  it('trusts the origin the link names, else its own', () => {
    expect(trustedOrigin('https://blog.example', 'https://racelab.example')).toBe('https://blog.example');
    expect(trustedOrigin(undefined, 'https://racelab.example')).toBe('https://racelab.example');
  });

  it('takes a message only from that origin and from the window that frames it', () => {
    const trusted = 'https://blog.example';
    expect(distrust({ origin: trusted, source: parent }, trusted, parent)).toBeNull();
    expect(distrust({ origin: 'https://evil.example', source: parent }, trusted, parent)).toMatch(/from https:\/\/evil.example, not/);
    expect(distrust({ origin: 'https://blog.example:444', source: parent }, trusted, parent)).not.toBeNull();
    expect(distrust({ origin: 'null', source: parent }, trusted, parent)).not.toBeNull();
    expect(distrust({ origin: trusted, source: sibling }, trusted, parent)).toMatch(/not from the page that frames/);
    expect(distrust({ origin: trusted, source: null }, trusted, null)).not.toBeNull();
  });
});

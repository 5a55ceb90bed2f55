import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeOf } from './registry.js';

const source = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

describe('codeOf: the code the page shows for a variant', () => {
  it('is the variant file first, then each kit file it imports, once each', () => {
    const file = source('./duplicate-job/variants/waitForLock.ts');
    const code = codeOf(file);
    const own = readFileSync(file, 'utf8');
    expect(code.startsWith(own)).toBe(true);
    const kitHeaders = code.match(/^\/\/ ── scenarios\/kit\/\w+\.ts, imported above ──$/gm);
    expect(kitHeaders).toEqual([
      '// ── scenarios/kit/acquireWaiting.ts, imported above ──',
      '// ── scenarios/kit/releaseIfMine.ts, imported above ──',
    ]);
    // The Lua the release runs is on the page, not only the call.
    expect(code).toContain(readFileSync(source('./kit/releaseIfMine.ts'), 'utf8'));
  });

  it('also shows the kit files a kit file imports, after it', () => {
    const code = codeOf(source('./event-loop-block/variants/watchdog.ts'));
    const kitHeaders: string[] = code.match(/^\/\/ ── scenarios\/kit\/\w+\.ts, imported above ──$/gm) ?? [];
    // watchdog.ts renews with renewIfMine.ts: the Lua it runs is on the page too, once.
    expect(kitHeaders.indexOf('// ── scenarios/kit/renewIfMine.ts, imported above ──')).toBeGreaterThan(
      kitHeaders.indexOf('// ── scenarios/kit/watchdog.ts, imported above ──'),
    );
    expect(kitHeaders.filter((h) => h.includes('renewIfMine'))).toHaveLength(1);
    expect(code).toContain(readFileSync(source('./kit/renewIfMine.ts'), 'utf8'));
  });

  it('is the file alone when it imports nothing from the kit', () => {
    const file = source('./duplicate-job/variants/noLock.ts');
    expect(codeOf(file)).toBe(readFileSync(file, 'utf8'));
  });
});

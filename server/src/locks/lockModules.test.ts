// A lock module of your own says when it renews (renewsAt), or is refused with why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thinRenewal } from '../scenarios/kit/leaseEdge.js';
import { loadOwnLock } from './lockModules.js';

const folder = mkdtempSync(join(tmpdir(), 'racelab-own-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A module file exporting create() and `exports` (as JavaScript source). */
function moduleWith(name: string, exports: string): string {
  const path = join(folder, `${name}.mjs`);
  writeFileSync(path, `export function create() { return {}; }\n${exports}\n`);
  return path;
}

describe('a lock module of your own that renews', () => {
  it('keeps the fraction of the lease it renews after, and a lab refuses a lease too short for it', async () => {
    const own = await loadOwnLock(moduleWith('renews-at-90', 'export const renews = true; export const renewsAt = 0.9;'));
    expect(own).toMatchObject({ renews: true, renewsAt: 0.9 });
    expect(thinRenewal(own, 400)).toMatch(/a 400 ms lease leaves each renewal 40 ms to land.* 496 ms or more\.$/);
    expect(thinRenewal(own, 495)).not.toBeNull();
    expect(thinRenewal(own, 496)).toBeNull();
  });

  it('without renewsAt, or not renewing, says nothing of when', async () => {
    expect((await loadOwnLock(moduleWith('renews', 'export const renews = true;'))).renewsAt).toBeUndefined();
    expect((await loadOwnLock(moduleWith('no-renewal', 'export const renewsAt = 0.5;'))).renewsAt).toBeUndefined();
  });

  it('is refused a renewsAt that is not a fraction of the lease', async () => {
    for (const bad of ['1.5', '0', '"0.8"']) {
      const path = moduleWith(`bad-${bad.replace(/\W/g, '')}`, `export const renews = true; export const renewsAt = ${bad};`);
      await expect(loadOwnLock(path)).rejects.toThrow(
        /renewsAt .*: it must be the fraction of the lease after which the lock renews, above 0 and below 1/,
      );
    }
  });
});

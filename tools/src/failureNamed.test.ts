import { expect, it } from 'vitest';
import { failureNamed } from './failureNamed.js';

it('names the failures vitest and Playwright print, and nothing else', () => {
  const output = [
    '\x1b[31m FAIL \x1b[39m server/src/zz.test.ts > fails on purpose',
    '   × fails on purpose 6ms',
    '  1) [chromium] › tests/ownLock.spec.ts:26:1 › served from static files, with no server behind it',
    '  ✓   49 [chromium] › tests/ownLock.spec.ts:16:1 › a server started without --allow-own-locks (1.3s)',
    '      Tests  1 failed | 1 passed (2)',
    '  1 failed',
    'racelab worker: exits after its run, which left Timeout behind',
  ];
  expect(output.map(failureNamed).filter((line) => line !== null)).toEqual([
    'FAIL  server/src/zz.test.ts > fails on purpose',
    '1) [chromium] › tests/ownLock.spec.ts:26:1 › served from static files, with no server behind it',
  ]);
});

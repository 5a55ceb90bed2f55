// Which lines of a test runner's output name a failing test, for the summary at the end of
// `npm test` (testSuites.ts): vitest's ` FAIL  file > test` and Playwright's
// `  1) [chromium] › file:line › test`, colours or not.

// eslint-disable-next-line no-control-regex
const COLOUR = /\x1b\[[0-9;]*m/g;
const FAILING = /^\s*(FAIL\s|\d+\) \[)/;

/** The line without its colours and margins when it names a failing test, else null. */
export function failureNamed(line: string): string | null {
  const plain = line.replace(COLOUR, '').trim();
  return FAILING.test(plain) ? plain : null;
}

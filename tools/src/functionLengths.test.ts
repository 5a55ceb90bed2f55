// No function or method of a run's life (server/src/runs) or of the HTTP server
// (server/src/http) is longer than 60 lines: a method reads as a list of named steps.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { measureFunctions } from './measureFunctions.js';

const MAX_LINES = 60;
const folder = (name: string): string => fileURLToPath(new URL(`../../server/src/${name}`, import.meta.url));

describe('function lengths', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'racelab-lengths-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('measures each function from its first line to its closing brace, a nested one in both, tests left out', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    writeFileSync(path.join(scratch, 'sample.ts'), `export class Box {\n  open(): void {\n${body}\n    const inner = () => 1;\n  }\n}\n`);
    writeFileSync(path.join(scratch, 'sample.test.ts'), 'function skipped(): void {\n}\n');
    expect(measureFunctions([scratch]).map(({ name, lines }) => ({ name, lines }))).toEqual([
      { name: 'Box.open', lines: 8 },
      { name: 'inner', lines: 1 },
    ]);
  });

  it(`finds none longer than ${MAX_LINES} lines in server/src/runs and server/src/http`, () => {
    const measured = measureFunctions([folder('runs'), folder('http')]);
    // The folders were read: the run's life is in there.
    expect(measured.map((f) => f.name)).toEqual(expect.arrayContaining(['createRunStores', 'Playground.open', 'createAppServer']));
    const over = measured.filter((f) => f.lines > MAX_LINES).map((f) => `${f.lines} lines: ${f.name} (${f.file}:${f.line})`);
    expect(over).toEqual([]);
  });
});

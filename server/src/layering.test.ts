// The direction of dependency inside the server: scenarios, the worker process and the
// worker agents' port sit below runs (a run forks workers, takes them from agents and loads
// scenarios, never the other way round), and what they need of time comes from time/. A scenario or worker file that imports runs/ fails here.
// Their integration tests are exempt: they drive a scenario through a real run.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));

// Static imports and re-exports (`from '…'`) and dynamic ones (`import('…')`).
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*)(['"])([^'"]+)\1/g;

/** The folders under src/ that a file's relative imports land in, e.g. ['runs', 'time']. */
function importedFolders(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[2]!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(src, resolve(dirname(file), spec)).split(sep)[0]!);
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts') && !d.name.endsWith('.test.ts'))
    .map((d) => join(d.parentPath, d.name));
}

describe('the layers of the server', () => {
  it('finds an import of runs/ in the forms a file may write it', () => {
    const file = join(src, 'scenarios', 'x', 'y.ts');
    const text = `import { a } from '../../runs/clock.js';\nexport { b } from "../../runs/runLog.js";\nimport { c } from '../../time/clock.js';\nawait import('../../runs/run.js');`;
    expect(importedFolders(file, text)).toEqual(['runs', 'runs', 'time', 'runs']);
  });

  it.each(['scenarios', 'worker', 'agents'])('%s/ imports nothing from runs/', (folder) => {
    const files = sourceFiles(join(src, folder));
    expect(files.length).toBeGreaterThan(1);
    const offenders = files
      .filter((file) => importedFolders(file, readFileSync(file, 'utf8')).includes('runs'))
      .map((file) => relative(src, file));
    expect(offenders).toEqual([]);
  });
});

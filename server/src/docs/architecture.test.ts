// docs/ARCHITECTURE.md against the tree it describes: every file or folder it names in
// backticks is there (a rename or a removal that leaves the page behind fails here), every
// folder directly under a workspace's src/ is in it, and so is every event a worker may emit.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerEventBodies } from '@racelab/shared';
import { documentPath } from './generatedSection.js';

const SOURCE_ROOTS = ['shared/src', 'server/src', 'web/src', 'tools/src'];
// What is built, installed or left by a run: never what the page should name.
const NOT_SOURCE = new Set(['node_modules', 'dist', 'test-results', 'playwright-report']);
// A name ending like a file: `runLog.ts`, `explanation.md`, `wallClockShim.c`.
const FILE_NAME = /\.(ts|tsx|js|mjs|md|json|css|c|yml)$/;
// Letters, digits, dots, dashes and slashes only: `runs/`, `web/src/model/`. Not `/ws`, `@racelab/server`, `<id>`.
const PATH_LIKE = /^[\w.-]+(\/[\w.-]+)*\/?$/;

/** Every file and folder of the repository, from its root, folders ending in "/". */
function tree(root: string, under = ''): string[] {
  return readdirSync(join(root, under), { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && !NOT_SOURCE.has(entry.name))
    .flatMap((entry) => {
      const path = `${under}${entry.name}`;
      return entry.isDirectory() ? [`${path}/`, ...tree(root, `${path}/`)] : [path];
    });
}

/** What the page names as a file or a folder in backticks, as written (`../../kit/` as `kit/`). */
export function pathsNamed(page: string): string[] {
  const quoted = [...page.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.replace(/^(\.\.?\/)+/, ''));
  return [...new Set(quoted.filter((q) => PATH_LIKE.test(q) && (q.includes('/') || FILE_NAME.test(q))))];
}

/** The named paths that are no file or folder of the tree: a name matches the tree's path that it ends. */
export function missingPaths(named: string[], paths: string[]): string[] {
  return named.filter((name) => !paths.some((path) => path === name || path.endsWith(`/${name}`)));
}

/** The folders directly under a source root that the page never names whole (`web/src/ticks/`). */
export function foldersLeftOut(page: string, paths: string[]): string[] {
  const folders = paths.filter((p) =>
    SOURCE_ROOTS.some((root) => p.startsWith(`${root}/`) && p.endsWith('/') && p.split('/').length === 4),
  );
  return folders.filter((folder) => !page.includes(`\`${folder}\``) && !page.includes(`\`${folder.slice(0, -1)}\``));
}

const root = documentPath('');
const paths = tree(root);
const page = readFileSync(documentPath('docs/ARCHITECTURE.md'), 'utf8');

describe('docs/ARCHITECTURE.md', () => {
  it('names only files and folders that are there', () => {
    const named = pathsNamed(page);
    expect(named.length).toBeGreaterThan(50);
    expect(missingPaths(named, paths)).toEqual([]);
  });

  it('names every folder directly under shared/src, server/src, web/src and tools/src', () => {
    expect(foldersLeftOut(page, paths)).toEqual([]);
  });

  it('lists every event a worker may emit', () => {
    const types = workerEventBodies.map((body) => body.shape.type.value);
    expect(types.filter((type) => !page.includes(`\`${type}\``))).toEqual([]);
  });

  it('would catch a file renamed or a folder left out', () => {
    const renamed = page.replace('`runs/runLog.ts`', '`runs/eventLog.ts`').replace('`web/src/ticks/`', 'the ticks');
    expect(missingPaths(pathsNamed(renamed), paths)).toEqual(['runs/eventLog.ts']);
    expect(foldersLeftOut(renamed, paths)).toEqual(['web/src/ticks/']);
    expect(pathsNamed('`/ws`, `@racelab/server`, `server/src/scenarios/<id>/`, `import.meta.url`, `../../kit/`')).toEqual(['kit/']);
  });
});

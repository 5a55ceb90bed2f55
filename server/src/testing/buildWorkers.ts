// vitest global setup: integration tests fork workers from server/dist (the worker's bundle,
// worker/entry.ts), and the tools' tests run tools/dist, so both must match the sources
// under test. Built again only when a source is newer than what was built from it (`npm
// test` has just built everything: its unit step would spend ~12 s finding so with tsc).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The newest modification time of the files under `dirs` (test files aside: nothing is built from them; a path not there: none). */
function newestSource(dirs: string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    const full = path.join(root, dir);
    if (!existsSync(full)) continue;
    const files = statSync(full).isDirectory()
      ? readdirSync(full, { recursive: true, encoding: 'utf8' }).map((f) => path.join(full, f))
      : [full];
    for (const file of files) if (!file.endsWith('.test.ts')) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** Built after its sources: the file exists and is newer than every one of them. */
function builtAfter(built: string, sources: string[]): boolean {
  const file = path.join(root, built);
  return existsSync(file) && statSync(file).mtimeMs > newestSource(sources);
}

export default function setup(): void {
  // The bundle is written last of the server's build; tsc writes its build info whenever it emits.
  const fresh =
    // npm writes node_modules/.package-lock.json at every install: a library the bundle holds may have changed.
    builtAfter('server/dist/worker/bundle/workerBundle.js', [
      'shared/src',
      'server/src',
      'server/scripts/bundleWorker.mjs',
      'node_modules/.package-lock.json',
    ]) && builtAfter('tools/dist/.tsbuildinfo', ['tools/src']);
  if (fresh) return;
  for (const workspace of ['shared', 'server', 'tools']) {
    execFileSync('npx', ['tsc', '-p', `${workspace}/tsconfig.json`], { cwd: root, stdio: 'inherit' });
  }
  execFileSync(process.execPath, ['server/scripts/bundleWorker.mjs'], { cwd: root, stdio: 'inherit' });
}

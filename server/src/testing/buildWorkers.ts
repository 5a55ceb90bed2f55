// vitest global setup: integration tests fork workers from server/dist (the worker's bundle,
// worker/entry.ts), and the tools' tests run tools/dist, so both must match the sources
// under test. tsc is incremental: a no-change build takes about a second each, the bundle
// about as long.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  for (const workspace of ['shared', 'server', 'tools']) {
    execFileSync('npx', ['tsc', '-p', `${workspace}/tsconfig.json`], { cwd: root, stdio: 'inherit' });
  }
  execFileSync(process.execPath, ['server/scripts/bundleWorker.mjs'], { cwd: root, stdio: 'inherit' });
}

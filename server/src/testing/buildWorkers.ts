// vitest global setup: integration tests fork workers from server/dist, so it must match
// the sources under test. tsc is incremental: a no-change build takes about a second.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  for (const workspace of ['shared', 'server']) {
    execFileSync('npx', ['tsc', '-p', `${workspace}/tsconfig.json`], { cwd: root, stdio: 'inherit' });
  }
}

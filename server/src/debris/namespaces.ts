// The network namespaces a racelab server created for its lab hosts (labnet/labHost.ts),
// found by name: racelab-<pid>-<start ticks>-<n>. One whose owner no longer runs is deleted
// (its veth pair goes with it); another live server's are never touched, whatever it is.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isSameProcess } from '../services/pids.js';
import { NAMESPACE_PREFIX } from '../labnet/labHost.js';

const run = promisify(execFile);
const OWNED = new RegExp(`^${NAMESPACE_PREFIX}(\\d+)-(\\d+|x)-\\d+$`);

/** This machine's racelab namespaces (none where `ip netns` does not work). */
export async function racelabNamespaces(): Promise<string[]> {
  if (process.platform !== 'linux') return [];
  try {
    const { stdout } = await run('ip', ['netns', 'list'], { timeout: 5000 });
    return stdout
      .split('\n')
      .map((line) => line.split(' ')[0]!)
      .filter((name) => OWNED.test(name));
  } catch {
    return [];
  }
}

/** Deletes the namespaces of racelab processes that no longer run; returns their names. */
export async function sweepNamespaces(): Promise<string[]> {
  const swept: string[] = [];
  for (const name of await racelabNamespaces()) {
    const [, pid, ticks] = OWNED.exec(name)!;
    if (isSameProcess(Number(pid), ticks === 'x' ? null : ticks!)) continue;
    try {
      await run('ip', ['netns', 'delete', name], { timeout: 5000 });
      swept.push(name);
    } catch {
      // Gone meanwhile, or not ours to delete (no root): the next sweep tries again.
    }
  }
  return swept;
}

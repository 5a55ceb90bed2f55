// Every lock the scenarios run as library variants: the npm libraries at their pinned
// versions, and a module of your own when RACELAB_LOCK_MODULE names one (`racelab check
// --lock`), loaded by absolute path in the server and in every worker process alike.
import { basename, isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LockAdapter, LockConnections, LockModule } from './lockAdapter.js';
import advisoryLock from './libraries/advisoryLock.js';
import ioredfour from './libraries/ioredfour.js';
import microfleetIoredisLock from './libraries/microfleetIoredisLock.js';
import { redisSemaphoreMutex, redisSemaphoreRedlockMutex } from './libraries/redisSemaphore.js';
import redlock from './libraries/redlock.js';
import sesamecareRedlock from './libraries/sesamecareRedlock.js';

import { LOCK_MODULE_ENV } from './lockEnv.js';

export { LOCK_MODULE_ENV };

/** The variant id of a lock module of your own. */
export const OWN_LOCK_ID = 'your-lock';

/** The npm libraries, in the order the page and the scorecard list them. */
export const LIBRARY_LOCKS: LockModule[] = [
  redlock,
  sesamecareRedlock,
  redisSemaphoreMutex,
  redisSemaphoreRedlockMutex,
  microfleetIoredisLock,
  ioredfour,
  advisoryLock,
];

interface OwnModule {
  create?: (connections: LockConnections) => LockAdapter | Promise<LockAdapter>;
  name?: string;
  version?: string;
  redisKey?: (key: string) => string | null;
  renews?: boolean;
  renewsAt?: number;
  fences?: boolean;
  spansNodes?: boolean;
  answersAtMajority?: boolean;
  default?: OwnModule;
}

/** Loads a lock module of your own from an absolute path; throws a clear error when it has no create(). */
export async function loadOwnLock(path: string): Promise<LockModule> {
  if (!isAbsolute(path)) throw new Error(`${LOCK_MODULE_ENV} must be an absolute path, not '${path}'`);
  const loaded = (await import(pathToFileURL(path).href)) as OwnModule;
  const own = typeof loaded.create === 'function' ? loaded : loaded.default;
  const create = own?.create;
  if (typeof create !== 'function') {
    throw new Error(`${path} exports no create(connections) (nor a default object with one): see examples/locks/README.md`);
  }
  const renewsAt = own?.renewsAt;
  if (renewsAt !== undefined && !(typeof renewsAt === 'number' && renewsAt > 0 && renewsAt < 1)) {
    throw new Error(
      `${path} exports renewsAt ${String(renewsAt)}: it must be the fraction of the lease after which the lock renews, above 0 and below 1`,
    );
  }
  return {
    name: own?.name ?? basename(path),
    version: own?.version ?? 'local',
    id: OWN_LOCK_ID,
    source: pathToFileURL(path).href,
    summary: `Your lock from ${basename(path)}, behind the same interface as the libraries.`,
    renews: own?.renews ?? false,
    ...(own?.renews && renewsAt !== undefined ? { renewsAt } : {}),
    fences: own?.fences ?? false,
    spansNodes: own?.spansNodes ?? false,
    answersAtMajority: own?.answersAtMajority ?? false,
    redisKey: own?.redisKey ?? ((key) => key),
    create: (connections) => create.call(own, connections),
  };
}

const ownPath = process.env[LOCK_MODULE_ENV];

/** The locks this process runs: the libraries, and yours when the environment names one. */
export const LOCKS: LockModule[] = ownPath ? [...LIBRARY_LOCKS, await loadOwnLock(ownPath)] : LIBRARY_LOCKS;

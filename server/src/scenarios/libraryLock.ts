// What every scenario's library variants share: take a lock module's lock around a job and
// give it back, with the timeline's lease events, and the variant's frame (title, the
// library's name and version, where its key lives). Each scenario builds its variants from
// these with one function (duplicate-job/libraryVariants.ts, ledgerLibraryVariants.ts).
import type { Redis } from 'ioredis';
import type { LockAdapter, LockModule } from '../locks/lockAdapter.js';
import { openLock, type LabConnections } from '../locks/openLock.js';
import { readKeyValue } from './keyValue.js';
import { thinRenewal } from './kit/leaseEdge.js';
import type { VariantDefinition, WorkerContext } from './types.js';

export interface LibraryGrant {
  handle: unknown;
  /** What the grant stored at the lock's key: the library's word for it, or what Redis held right after. */
  value: string;
  fence?: number;
}

/** The parts of a library variant every scenario gives the same way. */
export function libraryFrame(
  module: LockModule,
  lockKey: string,
): Pick<VariantDefinition<never>, 'id' | 'title' | 'summary' | 'source' | 'library' | 'keyAliases' | 'refusedAt'> {
  const stored = module.redisKey(lockKey);
  return {
    id: module.id,
    title: `${module.name} ${module.version}`,
    summary: module.summary,
    source: module.source,
    library: { name: module.name, version: module.version },
    refusedAt: (params) => (module.renews && typeof params['leaseMs'] === 'number' ? thinRenewal(module, params['leaseMs']) : null),
    ...(stored && stored !== lockKey ? { keyAliases: { [lockKey]: stored } } : {}),
  };
}

/** Where a library variant's lock lives: the scenario's key name, as the timeline shows it, and whether Redis holds it. */
export interface LockPlace {
  /** The scenario's key name (unprefixed; the variant's keyAliases say where the library stores it). */
  lockKey: string;
  /** The key as the timeline names it. */
  shownKey: string;
  /** False for a lock kept elsewhere (PostgreSQL): no key to read, no expiry. */
  inRedis: boolean;
  /** What the lock's key holds now, as this worker reads it (null: nothing, or not in Redis). */
  read(): Promise<string | null>;
}

/** A Redis that holds the lock in a lab of its own, and the lock's key there in full. */
export interface LockStore {
  redis: Redis;
  key: string;
}

/** Where `module` keeps the lock `lockKey` of this run: in the run's Redis, or in the lab's `store`. */
export function lockPlace(ctx: WorkerContext, module: LockModule, lockKey: string, store?: LockStore): LockPlace {
  const inRedis = module.redisKey(lockKey) !== null;
  const { redis, key } = store ?? { redis: ctx.redis, key: ctx.key(lockKey) };
  return {
    lockKey,
    shownKey: inRedis ? key : `${module.name}(${lockKey})`,
    inRedis,
    read: async () => (inRedis ? await readKeyValue(redis, key) : null),
  };
}

/** Where a lab keeps a library's lock, when not in the run's Redis: the connections it lends, and where to read the key. */
export interface LabLock {
  lab?: LabConnections;
  store?: LockStore;
}

/**
 * Opens `module`'s lock for this worker, takes it once for `leaseMs` (null: `denied` says
 * so and the job goes on without it), runs `use` under the grant, and gives it back.
 */
export async function holdLibraryLock(
  ctx: WorkerContext,
  module: LockModule,
  lockKey: string,
  leaseMs: number,
  where: LabLock,
  denied: (place: LockPlace) => Promise<unknown>,
  use: (grant: LibraryGrant, place: LockPlace) => Promise<void>,
): Promise<void> {
  const { lock, close } = await openLock(module, ctx, where.lab);
  const place = lockPlace(ctx, module, lockKey, where.store);
  try {
    const grant = await takeLibraryLock(ctx, lock, place, leaseMs);
    if (grant === null) {
      await denied(place);
      return;
    }
    try {
      await use(grant, place);
    } finally {
      await giveBackLibraryLock(ctx, lock, grant, place);
    }
  } finally {
    await close();
  }
}

/** Tries once to take the lock for `leaseMs`; reports the request and the grant; null when another holds it. */
export async function takeLibraryLock(
  ctx: WorkerContext,
  lock: LockAdapter,
  place: LockPlace,
  leaseMs: number,
): Promise<LibraryGrant | null> {
  ctx.emit({ type: 'lease-requested', key: place.shownKey });
  const sent = ctx.now(); // the lease counts from the request, not from its reply
  const handle = await lock.acquire(place.lockKey, leaseMs);
  if (handle === null) return null;
  const fence = lock.fence?.(handle);
  // The library's word for its value; else what the key holds right after the grant (its own: it was just taken).
  const value = lock.value?.(handle) ?? (await place.read()) ?? place.shownKey;
  const ttlMs = place.inRedis ? leaseMs : null;
  ctx.emit({ type: 'lease-acquired', key: place.shownKey, ttlMs, fromMs: sent, token: value, ...(fence === undefined ? {} : { fence }) });
  return { handle, value, ...(fence === undefined ? {} : { fence }) };
}

/** Releases a grant with the library and reports what Redis shows the release did (1: it removed the key it found). */
export async function giveBackLibraryLock(ctx: WorkerContext, lock: LockAdapter, grant: LibraryGrant, place: LockPlace): Promise<void> {
  const before = await place.read();
  await lock.release(grant.handle);
  const after = await place.read();
  ctx.emit({ type: 'lease-released', key: place.shownKey, deleted: before !== null && after === null ? 1 : 0 });
}

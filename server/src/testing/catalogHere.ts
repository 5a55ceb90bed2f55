// The catalog as the tests' Redis can run it, known when a test file is collected: a test
// can then name each variant it does not play, and why, in its title.
import { Redis } from 'ioredis';
import { unavailableHere } from '@racelab/shared';
import { catalogOn, loadCatalog, type Catalog } from '../scenarios/registry.js';
import { DEFAULT_REDIS_URL } from '../services/index.js';

/** The catalog with each variant the Redis of REDIS_URL (or the local default) cannot run marked, as a playground on it marks it. */
export async function catalogHere(): Promise<Catalog> {
  const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await catalogOn(await loadCatalog(), redis);
  } finally {
    redis.disconnect();
  }
}

/** Why a run of this scenario's variant (or of a near-miss of it) is refused here; null when it runs. */
export function refusedHere(catalog: Catalog, scenario: string, variant: string): string | null {
  return unavailableHere(
    catalog.manifests.find((m) => m.id === scenario)!,
    variant,
  );
}

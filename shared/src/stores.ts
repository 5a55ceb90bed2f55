// The names of racelab's own two stores, as a run's observations and the page's truth
// lanes carry them. A scenario's lab names its own parts ("Redis node", "Sentinel").

/** The run's Redis keys: every key-observed event is about this store. */
export const REDIS_STORE = 'Redis';
/** The run's PostgreSQL schema: the store of a row-observed event that names none. */
export const POSTGRES_STORE = 'PostgreSQL';
/** The stores every run has, whatever its lab. */
export const CORE_STORES = [REDIS_STORE, POSTGRES_STORE] as const;
export type CoreStore = (typeof CORE_STORES)[number];

/** The store a row-observed event is about: the one it names, else PostgreSQL (runs recorded before stores were named). */
export function storeOf(event: { store?: string | undefined }): string {
  return event.store ?? POSTGRES_STORE;
}

/**
 * A worker whose store connection broke exits with its store's code, so the server can name
 * the cause even when no 'finished' message said it first: the worker was idle (its plan may
 * have been on its way), or its exit was read before the message. Node itself never exits
 * with these (its own codes are 1 to 13, and 128 and above for a signal).
 */
export const LOST_STORE_EXIT_CODES: Readonly<Record<CoreStore, number>> = { [REDIS_STORE]: 20, [POSTGRES_STORE]: 21 };

/** The store whose lost connection made a worker exit with `code`, if that is why it exited. */
export function storeLostBy(code: number | null): CoreStore | undefined {
  return CORE_STORES.find((store) => LOST_STORE_EXIT_CODES[store] === code);
}

/** What a worker that lost its connection to `store` went through, in the run's and the timeline's words. */
export function lostConnectionWords(store: CoreStore): string {
  return `its ${store} connection was lost`;
}

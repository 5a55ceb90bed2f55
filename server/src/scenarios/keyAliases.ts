// A library variant's lock may live under a key the library names its own way
// ("mutex:<key>"). The run and the worker resolve a scenario's key name through the
// variant's aliases, so the scenario's watch, latches and measures read the real key.

/** The stored name of a scenario's key name (both without the run's prefix). */
export function storedKey(aliases: Record<string, string> | undefined, name: string): string {
  return aliases?.[name] ?? name;
}

/** Where the run's `key` puts the scenario's key `name`, without the run's prefix: for a lab's own nodes, which need none. */
export function storedName(key: (name: string) => string, name: string): string {
  return key(name).slice(key('').length);
}

/** The scenario's name of a stored key: the inverse of storedKey. */
export function scenarioKey(aliases: Record<string, string> | undefined, stored: string): string {
  if (!aliases) return stored;
  return Object.entries(aliases).find(([, to]) => to === stored)?.[0] ?? stored;
}

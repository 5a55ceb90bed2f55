// Delete-if-equal as one command of the server: Redis 8.4's DELEX key IFEQ value, Valkey 9's
// DELIFEQ key value. Either replaces the compare-and-delete script; an older server has
// neither, and a variant that needs one is unavailable there, never imitated by a script.
import type { Redis } from 'ioredis';

/** The command that deletes a key only while it holds a value, as this server names it; null: it has none. */
export type DeleteIfEqual = 'DELEX' | 'DELIFEQ' | null;

/** What a variant that releases with delete-if-equal needs, as the catalogue says it. */
export const NEEDS_DELETE_IF_EQUAL = 'needs Redis ≥ 8.4 (DELEX) or Valkey ≥ 9 (DELIFEQ)';

// Asked once per connection: the server does not grow a command while it is connected.
const asked = new WeakMap<Redis, Promise<DeleteIfEqual>>();

/** Which delete-if-equal command the server has: COMMAND INFO answers a nil entry for a command it does not know. */
export function deleteIfEqualOf(redis: Redis): Promise<DeleteIfEqual> {
  let answer = asked.get(redis);
  if (!answer) {
    answer = (redis.call('COMMAND', 'INFO', 'DELEX', 'DELIFEQ') as Promise<unknown[]>).then(([delex, delifeq]) =>
      delex ? 'DELEX' : delifeq ? 'DELIFEQ' : null,
    );
    asked.set(redis, answer);
  }
  return answer;
}

/** The server's name and version from INFO server: Valkey reports a Redis version too, for clients, so its own comes first. */
export async function serverVersionOf(redis: Redis): Promise<{ name: 'Redis' | 'Valkey'; version: string }> {
  const info = await redis.info('server');
  const field = (name: string): string | undefined => new RegExp(`^${name}:(.+)$`, 'm').exec(info)?.[1]?.trim();
  const valkey = field('valkey_version');
  return valkey ? { name: 'Valkey', version: valkey } : { name: 'Redis', version: field('redis_version') ?? 'unknown' };
}

/** Why this server cannot run a delete-if-equal release, with its version; null when it has DELEX or DELIFEQ. */
export async function deleteIfEqualMissing(redis: Redis): Promise<string | null> {
  if (await deleteIfEqualOf(redis)) return null;
  const { name, version } = await serverVersionOf(redis);
  return `${NEEDS_DELETE_IF_EQUAL}; this ${name} is ${version}`;
}

/** Deletes `key` only while it holds `value`, in one command; 1 when deleted, 0 when it held another. Throws where the server has neither command. */
export async function deleteIfEqual(redis: Redis, key: string, value: string): Promise<number> {
  const command = await deleteIfEqualOf(redis);
  if (command === 'DELEX') return Number(await redis.call('DELEX', key, 'IFEQ', value));
  if (command === 'DELIFEQ') return Number(await redis.call('DELIFEQ', key, value));
  throw new Error(`delete-if-equal ${NEEDS_DELETE_IF_EQUAL}: this server has neither command`);
}

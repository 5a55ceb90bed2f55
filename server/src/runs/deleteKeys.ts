import type { Redis } from 'ioredis';

/** Deletes every key that matches the SCAN pattern `match`, but those `keep` spares; resolves to how many went. */
export async function deleteKeys(redis: Redis, match: string, keep: (key: string) => boolean = () => false): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    const gone = keys.filter((k) => !keep(k));
    if (gone.length > 0) deleted += await redis.del(...gone);
    cursor = next;
  } while (cursor !== '0');
  return deleted;
}

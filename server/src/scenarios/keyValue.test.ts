// What a key holds, read against the real Redis for each type a lock may keep: the text the
// timeline shows and a worker's lease token is compared with.
import { afterAll, describe, expect, it } from 'vitest';
import { freshPrefix, testRedis } from '../testing/testRedis.js';
import { readKeyValue } from './keyValue.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

describe('readKeyValue', () => {
  it('reads a string as it is, a set by its sorted members, a hash by its fields in name order', async () => {
    const prefix = freshPrefix();
    await redis.set(`${prefix}string`, 'worker-1:ab12');
    await redis.sadd(`${prefix}set`, 'worker-2', 'worker-1');
    await redis.hset(`${prefix}hash`, 'owner', 'worker-1', 'index', '7');
    await redis.rpush(`${prefix}list`, 'x');
    const values = await Promise.all(['string', 'set', 'hash', 'list', 'none'].map((k) => readKeyValue(redis, prefix + k)));
    expect(values).toEqual(['worker-1:ab12', '{worker-1, worker-2}', '{index: 7, owner: worker-1}', 'list', null]);
    await redis.del(...['string', 'set', 'hash', 'list'].map((k) => prefix + k));
  });
});

// Which delete-if-equal command a real server has, asked as the server asks it. The tests'
// Redis is whatever REDIS_URL names: where it lacks both commands, the reason names its real
// version. A server that has one is a real redis-server started here with DEL renamed to
// DELEX (or DELIFEQ): COMMAND INFO then answers an entry for that name, as it would on
// Redis 8.4 or Valkey 9. Those servers' own commands are not played here: these are not them.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REDIS_URL } from '../../services/index.js';
import { startEmbeddedRedis } from '../../services/embeddedRedis.js';
import type { StartedService } from '../../services/startedService.js';
import { deleteIfEqual, deleteIfEqualMissing, deleteIfEqualOf, serverVersionOf } from './deleteIfEqual.js';

const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const command = await deleteIfEqualOf(redis);
afterAll(() => redis.disconnect());

describe.skipIf(command !== null)("the tests' Redis, which has neither DELEX nor DELIFEQ", () => {
  it('is reported unavailable, with its version as INFO server gives it', async () => {
    const version = /^redis_version:(.+)$/m.exec(await redis.info('server'))![1]!.trim();
    expect(await serverVersionOf(redis)).toEqual({ name: 'Redis', version });
    expect(await deleteIfEqualMissing(redis)).toBe(`needs Redis ≥ 8.4 (DELEX) or Valkey ≥ 9 (DELIFEQ); this Redis is ${version}`);
  });

  it('a release is refused, not played by a script', async () => {
    await expect(deleteIfEqual(redis, 'racelab-test:delete-if-equal', 'token')).rejects.toThrow(/needs Redis ≥ 8.4 \(DELEX\)/);
  });
});

describe.each(['DELEX', 'DELIFEQ'] as const)('a redis-server that has a command named %s', (name) => {
  let server: StartedService;
  let client: Redis;
  beforeAll(async () => {
    server = await startEmbeddedRedis({ args: ['--rename-command', 'DEL', name] });
    client = new Redis(server.url);
  });
  afterAll(async () => {
    client.disconnect();
    await server.stop();
  });

  it(`is reported to have ${name}, and nothing is missing`, async () => {
    expect(await deleteIfEqualOf(client)).toBe(name);
    expect(await deleteIfEqualMissing(client)).toBeNull();
  });
});

// Compare-and-delete: the key is deleted only while it still holds the releaser's token.
// The check and the delete run as one step inside Redis, so a lock whose lease ran out
// and passed to another holder is never deleted by the one before.
import { luaScript } from './script.js';

export const RELEASE_SCRIPT = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

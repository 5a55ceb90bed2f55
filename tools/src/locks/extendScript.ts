// Compare-and-extend: a new lease only while the key still holds the holder's token. A
// plain PEXPIRE would extend whoever holds the lock now, perhaps another process.
import { luaScript } from './script.js';

export const EXTEND_SCRIPT = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

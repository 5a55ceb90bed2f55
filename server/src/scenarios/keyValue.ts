// What a key holds, as racelab shows it, whatever the key's type: a string as it is, a set's
// sorted members as "{a, b}", a hash's fields by name as "{field: value}" (ioredfour keeps
// its lock as a hash), another type by its name. The server's observers and the workers read
// a lock's key through this one Lua function, so the value the timeline shows for the key and
// the value a worker took its lease with are the same text.
import type { Redis } from 'ioredis';

/** Lua: `valueOf(key)`, the key's value as text, false when there is no key. Prepend it to a script that calls it. */
export const LUA_VALUE_OF = `
local function valueOf(key)
  local t = redis.call('TYPE', key).ok
  if t == 'none' then return false end
  if t == 'string' then return redis.call('GET', key) end
  if t == 'set' then
    local members = redis.call('SMEMBERS', key)
    table.sort(members)
    return '{' .. table.concat(members, ', ') .. '}'
  end
  if t == 'hash' then
    local flat = redis.call('HGETALL', key)
    local names, values = {}, {}
    for i = 1, #flat, 2 do
      names[#names + 1] = flat[i]
      values[flat[i]] = flat[i + 1]
    end
    table.sort(names)
    for i, name in ipairs(names) do names[i] = name .. ': ' .. values[name] end
    return '{' .. table.concat(names, ', ') .. '}'
  end
  return t
end`;

const READ_VALUE = `${LUA_VALUE_OF}
return valueOf(KEYS[1])`;

/** What `key` holds on `redis`, as the timeline shows it (see LUA_VALUE_OF); null when there is no key. */
export async function readKeyValue(redis: Redis, key: string): Promise<string | null> {
  return (await redis.eval(READ_VALUE, 1, key)) as string | null;
}

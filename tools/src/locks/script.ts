// Runs a Lua script by its SHA1 (EVALSHA) and loads it with EVAL only when Redis answers
// NOSCRIPT (a restarted or flushed Redis): one round trip, without the script's text on
// the wire each time.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface LuaScript {
  source: string;
  sha1: string;
}

/** Wraps a Lua source with its SHA1, computed once. */
export function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source, 'utf8').digest('hex') };
}

/** EVALSHA, falling back to EVAL on NOSCRIPT; resolves to the script's reply. */
export function runScript(redis: Redis, script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  // A plain promise chain, not an async function: no extra promise on the hot path.
  return redis.evalsha(script.sha1, keys.length, ...keys, ...args).catch((error: unknown) => {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.eval(script.source, keys.length, ...keys, ...args);
  });
}

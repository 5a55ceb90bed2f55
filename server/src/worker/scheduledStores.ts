// An explored run's worker: each command it sends to Redis and each statement it sends to
// PostgreSQL first stops at a scheduling point and goes once the server says so. The
// commands are the variant's own and those of any library it calls on the same client or a
// duplicate of it (a lock module's adapter gets one); what a library sends on connections of
// its own is not scheduled, but each call of a lock module's adapter is.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { StepAt } from '@racelab/shared';
import type { LockAdapter } from '../locks/lockAdapter.js';

/** Waits at a scheduling point until the server lets the worker go. */
export type Gate = (step: StepAt) => Promise<void>;

/** How much of a statement a step shows: enough to tell statements apart. */
const SQL_SHOWN = 80;

interface SentCommand {
  name: string;
  getKeys(): Array<string | Buffer>;
  promise: Promise<unknown>;
}

/** What a new connection sends before it is ready (ioredis's log-in, name and ready check): no step of the code's. */
const CONNECTION_SETUP = new Set(['auth', 'hello', 'client', 'info', 'select', 'readonly']);

/**
 * Every command of `redis` (not a pipeline's: its batch goes as the code sent it) waits at
 * `gate` first; so does every command of a duplicate() of it, made later.
 */
export function gateRedis(redis: Redis, keyPrefix: string, gate: Gate): void {
  const send = redis.sendCommand.bind(redis) as (command: SentCommand, stream?: unknown) => unknown;
  const unprefixed = (key: string | Buffer): string => {
    const text = key.toString();
    return text.startsWith(keyPrefix) ? text.slice(keyPrefix.length) : text;
  };
  // A command sent before the connection is ready waits in ioredis's queue, which sends it again
  // through here once ready: it has passed its point already.
  const passed = new WeakSet<SentCommand>();
  (redis as unknown as { sendCommand: typeof send }).sendCommand = (command, stream) => {
    if (stream !== undefined || passed.has(command) || CONNECTION_SETUP.has(command.name.toLowerCase())) return send(command, stream);
    const step: StepAt = { kind: 'redis', command: command.name.toUpperCase(), keys: command.getKeys().map(unprefixed) };
    void gate(step).then(() => {
      passed.add(command);
      send(command);
    });
    return command.promise;
  };
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (...args: Parameters<Redis['duplicate']>) => {
    const copy = duplicate(...args);
    gateRedis(copy, keyPrefix, gate);
    return copy;
  };
}

/** The point a worker reaches right after its lock's acquire returned a grant of `key` (where the lock keeps it). */
export const grantedPoint = (key: string): string => `granted ${key}`.slice(0, 100);

/**
 * Each call of `lock` (acquire, release, extend) waits at `gate` first, whatever connections
 * the lock sends on; a grant stops once more right after (grantedPoint). `storedAt` names where the lock keeps a key in Redis (its module's redisKey).
 */
export function gateLock<Handle>(lock: LockAdapter<Handle>, gate: Gate, storedAt: (key: string) => string): LockAdapter<Handle> {
  const keys = new Map<Handle, string>(); // a release names its handle, not its key
  let lastKey = '';
  const step = (call: 'acquire' | 'release' | 'extend', key: string): Promise<void> => gate({ kind: 'lock', call, key: storedAt(key) });
  // Built anew, not spread: an adapter may be a class, whose methods its prototype holds.
  return {
    async acquire(key, ttlMs) {
      lastKey = key;
      await step('acquire', key);
      const handle = await lock.acquire(key, ttlMs);
      if (handle === null) return null;
      keys.set(handle, key);
      // Arriving here tells the scheduler's trace whose grant each was, in the order Redis held them.
      await gate({ kind: 'checkpoint', name: grantedPoint(storedAt(key)) });
      return handle;
    },
    async release(handle) {
      await step('release', keys.get(handle) ?? lastKey);
      await lock.release(handle);
    },
    ...(lock.extend
      ? {
          async extend(handle: Handle, ttlMs: number) {
            await step('extend', keys.get(handle) ?? lastKey);
            await lock.extend!(handle, ttlMs);
          },
        }
      : {}),
    ...(lock.value ? { value: (handle: Handle) => lock.value!(handle) } : {}),
    ...(lock.fence ? { fence: (handle: Handle) => lock.fence!(handle) } : {}),
    ...(lock.close ? { close: () => lock.close!() } : {}),
  };
}

/** Every promise-style query of `client` waits at `gate` first. */
export function gatePostgres(client: pg.Client, gate: Gate): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: typeof query }).query = (...args: unknown[]) => {
    if (typeof args[args.length - 1] === 'function') return query(...args);
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
    const sql = text.replace(/\s+/g, ' ').trim().slice(0, SQL_SHOWN);
    return gate({ kind: 'postgres', sql }).then(() => query(...args));
  };
}

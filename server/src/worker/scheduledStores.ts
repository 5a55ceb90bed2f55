// An explored run's worker: each command it sends to Redis and each statement it sends to
// PostgreSQL first stops at a scheduling point and goes once the server says so. The
// commands are the variant's own and those of any library it calls on the same client;
// what a library sends on connections of its own is not scheduled.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { StepAt } from '@racelab/shared';

/** Waits at a scheduling point until the server lets the worker go. */
export type Gate = (step: StepAt) => Promise<void>;

/** How much of a statement a step shows: enough to tell statements apart. */
const SQL_SHOWN = 80;

interface SentCommand {
  name: string;
  getKeys(): Array<string | Buffer>;
  promise: Promise<unknown>;
}

/** Every command of `redis` (not a pipeline's: its batch goes as the code sent it) waits at `gate` first. */
export function gateRedis(redis: Redis, keyPrefix: string, gate: Gate): void {
  const send = redis.sendCommand.bind(redis) as (command: SentCommand, stream?: unknown) => unknown;
  const unprefixed = (key: string | Buffer): string => {
    const text = key.toString();
    return text.startsWith(keyPrefix) ? text.slice(keyPrefix.length) : text;
  };
  (redis as unknown as { sendCommand: typeof send }).sendCommand = (command, stream) => {
    if (stream !== undefined) return send(command, stream);
    const step: StepAt = { kind: 'redis', command: command.name.toUpperCase(), keys: command.getKeys().map(unprefixed) };
    void gate(step).then(() => send(command));
    return command.promise;
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

// A connection to the real Redis (REDIS_URL or the local default) and a fresh key prefix per
// test, so tests never see each other's keys.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULT_REDIS_URL } from '../services/findServices.js';

/** A client of the shared test Redis. */
export function testRedis(): Redis {
  return new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, { maxRetriesPerRequest: 1 });
}

/** A key prefix no other test uses, e.g. "racelab-locktest:1b2c…:". */
export function freshPrefix(): string {
  return `racelab-locktest:${randomUUID()}:`;
}

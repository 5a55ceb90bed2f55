import type { Services } from './findServices.js';
import { redactUrl } from './redactUrl.js';

/** One human line per store, passwords redacted, e.g. "redis: redis://127.0.0.1:6379 (default)". */
export function describeServices(services: Services): string[] {
  return [
    `redis: ${redactUrl(services.redisUrl)} (${services.redisSource})`,
    `postgres: ${redactUrl(services.databaseUrl)} (${services.postgresSource})`,
  ];
}

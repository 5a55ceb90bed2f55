// Whether the stores give each run users of its own is found once, at the server's start,
// by doing what a run would: making a Redis ACL user and a PostgreSQL role under a registered
// id of their own, logging in as each from a new connection, checking that each is held to
// its run (a key outside its prefix, the run registry's schema: refused), and dropping them.
// A store that refuses any step (no ACL, no right to ACL SETUSER or CREATE ROLE, a login the
// store does not let in) is named once in the log; runs then go without, as before.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureRegistry, registerOnly, settled, unregister } from '../debris/runRegistry.js';
import { credentialedUrl } from '../worker/runLogin.js';
import { createAclUser, deleteAclUser, dropRole, redisRunRules, runUserName, type CredentialSupport } from './runCredentials.js';

/** How long a login as the probe's user may take, in ms. */
const LOGIN_TIMEOUT_MS = 5000;

export interface ProbedCredentials {
  support: CredentialSupport;
  /** The one line for the log when a store refused; null when both allow. */
  refused: string | null;
}

/** Probes both stores (never throws: a step that fails is a store that refuses). */
export async function probeCredentials(
  { redis, pool }: { redis: Redis; pool: pg.Pool },
  urls: { redisUrl: string; databaseUrl: string },
): Promise<ProbedCredentials> {
  const probeId = randomBytes(5).toString('hex');
  const registered = ensureRegistry(pool).then(() => pool.query(registerOnly(probeId)));
  const [postgres, redisRules] = await Promise.all([
    registered.then(() => probePostgres(pool, urls.databaseUrl, probeId)).catch(refusal),
    registered.then(() => probeRedis(redis, urls.redisUrl, probeId)).catch(refusal),
  ]);
  // Registered while it lasts, so that another server's sweep leaves its user and role alone;
  // one a store would not let it drop is, from here on, a user of no registered run: a sweep's.
  await registered
    .then(() => unregister(pool, probeId))
    .catch(() => undefined)
    .finally(() => settled(probeId));
  const support = { redisRules: Array.isArray(redisRules) ? redisRules : null, postgresRoles: postgres === true };
  return { support, refused: refusalWords(Array.isArray(redisRules) ? null : redisRules, postgres === true ? null : postgres) };
}

const refusal = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** True, or why not: makes the probe's role, switches to it as a pooled worker would, logs in as it, drops it. */
async function probePostgres(pool: pg.Pool, databaseUrl: string, probeId: string): Promise<true | string> {
  const role = runUserName(probeId);
  const password = randomBytes(16).toString('hex');
  try {
    await pool.query(`create role ${role} login password '${password}'; grant ${role} to current_user`);
  } catch (error) {
    return `CREATE ROLE was refused: ${refusal(error)}`;
  }
  try {
    const pooled = await pool.connect();
    // Destroyed, not given back: no connection of the server's pool stays the probe's role.
    await pooled.query(`set role ${role}`).finally(() => pooled.release(true));
    const own = new pg.Client({
      connectionString: credentialedUrl(databaseUrl, role, password),
      connectionTimeoutMillis: LOGIN_TIMEOUT_MS,
    });
    own.on('error', () => undefined);
    await own.connect();
    try {
      const { rows } = await own.query<{ user: string }>('select current_user as user');
      if (rows[0]?.user !== role) return `a login as a run's role came in as ${rows[0]?.user ?? 'no one'}`;
      const held = await own.query('select from racelab.runs limit 0').then(
        () => false,
        (error: { code?: string }) => error.code === '42501',
      );
      return held ? true : "a run's role could read the run registry: it would not be held to its schema";
    } finally {
      await own.end().catch(() => undefined);
    }
  } catch (error) {
    return `a run's role could not be used: ${refusal(error)}`;
  } finally {
    await dropRole(pool, probeId);
  }
}

/** The rules a run's user gets, or why there is none: makes the probe's user, logs in as it, deletes it. */
async function probeRedis(redis: Redis, redisUrl: string, probeId: string): Promise<string[] | string> {
  const username = runUserName(probeId);
  const password = randomBytes(16).toString('hex');
  const version = await redis.info('server').then(
    (text) => Number(/^redis_version:(\d+)/m.exec(text)?.[1] ?? 0),
    () => 0, // a Redis that hides INFO: the rules every version with ACL users takes
  );
  const rules = redisRunRules(version);
  try {
    await createAclUser(redis, probeId, { username, password }, rules);
  } catch (error) {
    return `ACL SETUSER was refused: ${refusal(error)}`;
  }
  const own = new Redis(credentialedUrl(redisUrl, username, password), {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: LOGIN_TIMEOUT_MS,
  });
  own.on('error', () => undefined);
  try {
    await own.connect();
    const held = await own.exists('racelab:probe-outside').then(
      () => false,
      (error: Error) => error.message.startsWith('NOPERM'),
    );
    return held ? rules : "a run's user could read a key outside its prefix: it would not be held to its keys";
  } catch (error) {
    return `a run's user could not log in: ${refusal(error)}`;
  } finally {
    own.disconnect();
    await deleteAclUser(redis, probeId);
  }
}

/** The log's line for the stores that refused, or null when none did. */
export function refusalWords(redisRefused: string | null, postgresRefused: string | null): string | null {
  const refused = [
    redisRefused ? `Redis gives them no ACL user of their own (${redisRefused})` : '',
    postgresRefused ? `PostgreSQL gives them no role of their own (${postgresRefused})` : '',
  ].filter(Boolean);
  if (refused.length === 0) return null;
  const which =
    redisRefused && postgresRefused ? "the server's own users" : redisRefused ? "the server's Redis user" : "the server's PostgreSQL user";
  return `runs use ${which}, as before: ${refused.join('; ')}; see docs/SERVICES.md`;
}

// A pooled worker connects to the stores as the server's user before it knows its run, so
// that a run pays for no connection. Once its plan names the run's own users, it becomes
// them: every command its variant sends from then on is checked against the run's key
// prefix and schema, and one that reaches another run's gets the store's own permission error.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { RunCredentials } from './ipc.js';

/** A run's user or role, as the server names them (runs/runCredentials.ts); nothing else meets a command. */
const RUN_USER = /^racelab_run_[a-f0-9]+$/;

/** `url` with this user and password in it, in place of any it had. */
export function credentialedUrl(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/**
 * Logs this process's connections in as the run's users, and points the store URLs it
 * connects with from now on (a lock library's own client) at them; nothing where the stores
 * gave the run no user of its own.
 *
 * Redis: AUTH on the connection the process already has, then its options say the same, so
 * that a duplicate() of it (a lock library's) logs in as the run too. PostgreSQL: SET ROLE on
 * the connection the process already has, not a new connection as the role: a new one would
 * cost the run a connection and its authentication after its clock has started, which is
 * what the warm pool is there to spare it. Either can be undone by the session itself (AUTH
 * as the default user where it has no password, RESET ROLE): this confines what a trusted
 * variant does by mistake. Code that is not trusted runs in a process started with the run's
 * users in its store URLs (Run.storeUrls), which has no other user to go back to.
 */
export async function logInAsRun(credentials: RunCredentials | undefined, redis: Redis, client: pg.Client): Promise<void> {
  const { redis: user, postgres: role } = credentials ?? {};
  if (user) {
    if (!RUN_USER.test(user.username)) throw new Error('bad plan');
    await redis.auth(user.username, user.password);
    Object.assign(redis.options, { username: user.username, password: user.password });
    process.env.RACELAB_REDIS_URL = credentialedUrl(process.env.RACELAB_REDIS_URL ?? '', user.username, user.password);
  }
  if (role) {
    if (!RUN_USER.test(role.role)) throw new Error('bad plan');
    await client.query(`set role ${role.role}`);
    process.env.RACELAB_DATABASE_URL = credentialedUrl(process.env.RACELAB_DATABASE_URL ?? '', role.role, role.password);
  }
}

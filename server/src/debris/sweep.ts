// Removes what runs left behind when their server died without cleaning up (SIGKILL, a
// power cut, PostgreSQL down longer than a run's clean-up retries): the schemas, Redis keys
// and store users (a Redis ACL user, a PostgreSQL role) of runs whose owner no longer runs,
// schemas, keys and users that no registered run owns, the processes a dead server started,
// and the embedded stores' scratch folders. Run at every start, every minute while serving,
// and by `npm run clean`. With RACELAB_PEER_LEASES=1 (servers on several machines sharing the
// stores), a run of another machine's server is judged by that server's lease (serverLease.ts):
// gone, and no connection of the run's open, its owner is dead. Off by default: processes that
// share the stores under names of their own (RACELAB_HOST_ID) keep to their own. A run whose
// owner died is remembered as lost (lostRuns.ts) for the page that comes back asking for it.
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { deleteKeys } from '../runs/deleteKeys.js';
import { deleteAclUser, dropRole, runAclUsers, runRoles } from '../runs/runCredentials.js';
import { isSameProcess } from '../services/pids.js';
import { reapOrphans } from '../services/scratchDir.js';
import { sweepNamespaces } from './namespaces.js';
import { recordLost } from './lostRuns.js';
import { reapOwnedProcesses } from './ownedProcesses.js';
import { ensureRegistry, isLiveHere, registeredRuns, THIS_PROCESS, unregister, type RegisteredRun } from './runRegistry.js';
import { isHeld } from './serverLease.js';

/** What a sweep removed. */
export interface Swept {
  schemas: number;
  keys: number;
  runs: number;
  processes: string[];
  /** Network namespaces of lab hosts (with their links) whose server no longer runs. */
  namespaces: string[];
  /** PostgreSQL roles of runs (racelab_run_<id>). */
  roles: number;
  /** Redis ACL users of runs (racelab_run_<id>). */
  aclUsers: number;
}

const RUN_SCHEMA = /^run_([a-f0-9]{10})$/;
const RUN_KEY = /^racelab:([a-f0-9]{10}):/;

/** Whether this process judges other machines' runs by their servers' leases. */
const PEER_LEASES = process.env.RACELAB_PEER_LEASES === '1';

/**
 * Whether a run is debris: `dead` when its owner is gone (this machine's process no longer
 * runs; another machine's lease expired and nothing of the run is connected), `settled` when
 * the owner is this process and has settled it (a failed clean-up); false while it is anyone's.
 */
export async function debrisKind(
  redis: Redis,
  run: RegisteredRun,
  inUse: ReadonlySet<string>,
  peerLeases = PEER_LEASES,
): Promise<'dead' | 'settled' | false> {
  if (run.host !== THIS_PROCESS.host) {
    // Another machine's: judged by its lease only where it held one (an older racelab, or the CLI, holds none).
    if (!peerLeases || run.lease === null || inUse.has(run.runId)) return false;
    return (await isHeld(redis, run.lease)) ? false : 'dead';
  }
  if (run.pid === THIS_PROCESS.pid && run.ticks === THIS_PROCESS.ticks) return isLiveHere(run.runId) ? false : 'settled';
  return isSameProcess(run.pid, run.ticks) ? false : 'dead';
}

/** Sweeps the stores and the machine; each part on its own, so one store down spares the other. */
export async function sweepDebris(redis: Redis, pool: pg.Pool): Promise<Swept> {
  const swept: Swept = { schemas: 0, keys: 0, runs: 0, processes: [], namespaces: [], roles: 0, aclUsers: 0 };
  swept.processes = await reapOwnedProcesses();
  // After the processes: a namespace is deleted for good once nothing runs in it.
  swept.namespaces = await sweepNamespaces();
  await reapOrphans().catch(() => 0);
  await ensureRegistry(pool);

  // What exists is read before what is registered: a run registers and creates its schema and
  // role in one transaction, and makes its Redis user after, so a schema or user seen first
  // has its row by the time the rows are read.
  const { rows: schemas } = await pool.query<{ name: string }>(
    `select nspname as name from pg_namespace where nspname ~ '^run_[a-f0-9]{10}$'`,
  );
  const users = { roles: new Set(await runRoles(pool)), aclUsers: new Set(await runAclUsers(redis)) };
  const registered = await registeredRuns(pool);
  // Runs with a connection open right now (a run's own and its workers' connections carry
  // run_<id> in their application_name): never stray, registered or not (a racelab of an
  // earlier version on the same stores registers nothing).
  const { rows: active } = await pool.query<{ name: string }>(
    `select distinct application_name as name from pg_stat_activity where application_name ~ 'run_[a-f0-9]{10}'`,
  );
  const inUse = new Set(active.flatMap((a) => /run_([a-f0-9]{10})/.exec(a.name)?.[1] ?? []));
  const known = new Set([...registered.map((r) => r.runId), ...inUse]);
  for (const run of registered) {
    const kind = await debrisKind(redis, run, inUse);
    if (!kind) continue;
    if (kind === 'dead') await recordLost(redis, run);
    await pool.query(`drop schema if exists run_${run.runId} cascade`);
    await dropUsers(redis, pool, run.runId, users, swept);
    swept.keys += await deleteKeys(redis, `racelab:${run.runId}:*`);
    await unregister(pool, run.runId);
    swept.runs++;
    swept.schemas++;
  }
  for (const { name } of schemas) {
    const id = RUN_SCHEMA.exec(name)?.[1];
    if (id && !known.has(id)) {
      await pool.query(`drop schema if exists ${name} cascade`);
      swept.schemas++;
    }
  }
  // Users of no registered run (a start's probe whose store would not drop them): after the
  // stray schemas, which a role may have had privileges in.
  for (const id of new Set([...users.roles, ...users.aclUsers])) if (!known.has(id)) await dropUsers(redis, pool, id, users, swept);
  // Keys of no registered run (its schema's row gone, or a crash between): the same order,
  // keys first, then the rows that own them.
  const stray = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', 'racelab:*', 'COUNT', 1000);
    for (const key of keys) {
      const id = RUN_KEY.exec(key)?.[1];
      if (id) stray.add(id);
    }
    cursor = next;
  } while (cursor !== '0');
  const owned = new Set([...(await registeredRuns(pool)).map((r) => r.runId), ...inUse]);
  for (const id of stray) if (!owned.has(id)) swept.keys += await deleteKeys(redis, `racelab:${id}:*`);
  return swept;
}

/** Drops the run's role and deletes its Redis user, those of them the sweep saw. */
async function dropUsers(
  redis: Redis,
  pool: pg.Pool,
  runId: string,
  users: { roles: Set<string>; aclUsers: Set<string> },
  swept: Swept,
): Promise<void> {
  if (users.roles.delete(runId)) {
    await dropRole(pool, runId);
    swept.roles++;
  }
  if (users.aclUsers.delete(runId)) {
    await deleteAclUser(redis, runId);
    swept.aclUsers++;
  }
}

/** The sweep in words for the log; null when it found nothing. */
export function sweptWords(swept: Swept): string | null {
  const count = (n: number, one: string, many: string): string => (n === 0 ? '' : `${n} ${n === 1 ? one : many}`);
  const parts = [
    count(swept.runs, 'run of a process that no longer runs', 'runs of processes that no longer run'),
    count(swept.schemas, 'schema', 'schemas'),
    count(swept.keys, 'Redis key', 'Redis keys'),
    swept.processes.length > 0 ? `${count(swept.processes.length, 'process', 'processes')} (${swept.processes.join('; ')})` : '',
    swept.namespaces.length > 0
      ? `${count(swept.namespaces.length, 'network namespace', 'network namespaces')} (${swept.namespaces.join(', ')})`
      : '',
    count(swept.roles, "run's PostgreSQL role", "runs' PostgreSQL roles"),
    count(swept.aclUsers, "run's Redis ACL user", "runs' Redis ACL users"),
  ].filter(Boolean);
  return parts.length > 0 ? `removed what earlier runs left: ${parts.join(', ')}` : null;
}

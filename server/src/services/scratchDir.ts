import { mkdtemp, chmod, writeFile, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive, signal, waitForExit, commandLine } from './pids.js';

/** What a scratch dir is for: an embedded store, a moved clock's file (labnet/movableClock.ts), or an exercise's compiled code. */
export type ScratchKind = 'pg' | 'redis' | 'clock' | 'exercise' | 'pgbouncer';

// Written into every scratch dir so a later run can tell whose it was and what it left running.
interface OwnerRecord {
  owner: number;
  child: number | null;
}

const OWNER_FILE = 'owner.json';
const PREFIX = 'racelab-';
// What the leftover's /proc cmdline must contain before we dare to kill that pid (pids get reused);
// a clock's dir records no process of its own (the redis-server it moves has a dir of its own).
// An exercise's dir records no process either (its workers are owned processes: debris/ownedProcesses.ts).
const EXPECTED_COMMAND: Record<ScratchKind, string> = {
  pg: 'postgres',
  redis: 'redis-server',
  clock: 'redis-server',
  exercise: 'racelab-exercise-none',
  pgbouncer: 'pgbouncer',
};
// 0755 so the `postgres` OS user can enter a store's; a clock's file is for this user alone.
// An exercise's is entered by its workers, which may run as a user of their own.
const MODE: Record<ScratchKind, number> = { pg: 0o755, redis: 0o755, clock: 0o700, exercise: 0o755, pgbouncer: 0o700 };

/** Creates /tmp/racelab-<kind>-XXXXXX owned by this process. */
export async function makeScratchDir(kind: ScratchKind): Promise<string> {
  // Under os.tmpdir(), not the home dir: /root is not enterable by the postgres user.
  const dir = await mkdtemp(path.join(os.tmpdir(), `${PREFIX}${kind}-`));
  await chmod(dir, MODE[kind]);
  await writeOwner(dir, null);
  return dir;
}

/** Records the pid of the server started in `dir`, so reapOrphans can stop it if this process dies by SIGKILL. */
export async function recordChild(dir: string, childPid: number): Promise<void> {
  await writeOwner(dir, childPid);
}

/** Stops servers and deletes scratch dirs left by racelab processes that died without cleaning up; returns how many. */
export async function reapOrphans(log: (line: string) => void = () => {}): Promise<number> {
  let names: string[];
  try {
    names = await readdir(os.tmpdir());
  } catch {
    return 0;
  }
  let reaped = 0;
  for (const name of names) {
    const kind = kindOf(name);
    if (!kind) continue;
    const dir = path.join(os.tmpdir(), name);
    const record = await readOwner(dir);
    // No record yet (being created right now) or its owner still runs: not ours to touch.
    if (!record || isAlive(record.owner)) continue;
    if (record.child !== null && isAlive(record.child)) {
      const command = commandLine(record.child);
      // Can't verify what the pid is (no /proc): leave it rather than kill a stranger.
      if (command === null) continue;
      if (command.includes(EXPECTED_COMMAND[kind])) {
        // SIGQUIT is Postgres' immediate shutdown (releases shared memory); Redis has nothing to save.
        signal(record.child, kind === 'pg' ? 'SIGQUIT' : 'SIGKILL');
        if (!(await waitForExit(record.child, 5000))) {
          signal(record.child, 'SIGKILL');
          await waitForExit(record.child, 2000);
        }
      }
    }
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    log(`removed leftover ${name} of a racelab process (pid ${record.owner}) that no longer runs`);
    reaped++;
  }
  return reaped;
}

function kindOf(name: string): ScratchKind | null {
  if (name.startsWith(`${PREFIX}pg-`)) return 'pg';
  if (name.startsWith(`${PREFIX}redis-`)) return 'redis';
  if (name.startsWith(`${PREFIX}clock-`)) return 'clock';
  if (name.startsWith(`${PREFIX}exercise-`)) return 'exercise';
  if (name.startsWith(`${PREFIX}pgbouncer-`)) return 'pgbouncer';
  return null;
}

async function writeOwner(dir: string, child: number | null): Promise<void> {
  const record: OwnerRecord = { owner: process.pid, child };
  await writeFile(path.join(dir, OWNER_FILE), JSON.stringify(record));
}

async function readOwner(dir: string): Promise<OwnerRecord | null> {
  try {
    const record = JSON.parse(await readFile(path.join(dir, OWNER_FILE), 'utf8')) as Partial<OwnerRecord>;
    if (typeof record.owner !== 'number') return null;
    return { owner: record.owner, child: typeof record.child === 'number' ? record.child : null };
  } catch {
    return null;
  }
}

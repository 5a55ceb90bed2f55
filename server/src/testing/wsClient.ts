// A WebSocket client for tests and scripts: keeps every message the server sends and lets
// the caller wait for one, with a deadline so that nothing waits forever. Every message is
// parsed with the shared schema, as the page does: one the schema refuses, or would change
// (a field it drops or fills in), fails the next wait with what was wrong.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { WebSocket } from 'ws';
import { eventsOf, parseServerMessage, type RunEvent, type ServerMessage } from '@racelab/shared';
import type { Redis } from 'ioredis';
import type pg from 'pg';

export interface TestClient {
  socket: WebSocket;
  inbox: ServerMessage[];
  /** What was wrong with each message the shared schema refused or changed. */
  refused: string[];
  /** Takes (removes) the first message that matches, waiting for it up to `timeoutMs`. */
  next(match: (m: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  send(message: unknown): void;
  /**
   * Asks for a run (a start-run with `requestId` 'r' unless given) and waits for the server
   * to take it: the run-accepted that answers it (a run-rejected fails the wait, with its words).
   */
  startRun(
    request: { scenario: string; variant: string; requestId?: string; [field: string]: unknown },
    timeoutMs?: number,
  ): Promise<RunAccepted>;
  /** Resolves with the close code. */
  closed: Promise<number>;
}

export type RunAccepted = Extract<ServerMessage, { type: 'run-accepted' }>;

export async function connectClient(url: string, options: { origin?: string; headers?: Record<string, string> } = {}): Promise<TestClient> {
  const socket = new WebSocket(url, { ...(options.origin ? { origin: options.origin } : {}), headers: options.headers });
  const inbox: ServerMessage[] = [];
  const waiters = new Set<() => void>();
  const refused: string[] = [];
  socket.on('message', (data) => {
    const text = (data as Buffer).toString(); // a client socket's default binaryType: one Buffer a message
    const parsed = parseServerMessage(text);
    if (!parsed.ok || !isDeepStrictEqual(parsed.message, JSON.parse(text))) {
      refused.push(parsed.ok ? `the schema changes a '${parsed.message.type}' message: ${text.slice(0, 300)}` : parsed.error);
      for (const w of [...waiters]) w();
      return;
    }
    const message = parsed.message;
    // A batch of events is kept as the events it holds, one message each, as tests look for them.
    if (message.type === 'run-events')
      for (const event of eventsOf(message)) inbox.push({ type: 'run-event', runId: message.runId, event });
    else inbox.push(message);
    for (const w of [...waiters]) w();
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = (match: (m: ServerMessage) => boolean, timeoutMs = 30_000): Promise<ServerMessage> =>
    new Promise((resolve, reject) => {
      const look = (): boolean => {
        if (refused.length > 0) {
          waiters.delete(look);
          clearTimeout(timer);
          reject(new Error(`the server sent a message the protocol refuses: ${refused[0]}`));
          return true;
        }
        const at = inbox.findIndex(match);
        if (at < 0) return false;
        const [found] = inbox.splice(at, 1);
        waiters.delete(look);
        clearTimeout(timer);
        resolve(found!);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching message within ${timeoutMs} ms; last: ${JSON.stringify(inbox.slice(-3)).slice(0, 500)}`));
      }, timeoutMs);
      if (!look()) waiters.add(look);
    });
  const send = (message: unknown) => socket.send(JSON.stringify(message));
  const startRun: TestClient['startRun'] = async (request, timeoutMs) => {
    const requestId = request.requestId ?? 'r';
    send({ type: 'start-run', ...request, requestId });
    const answer = await next((m) => (m.type === 'run-accepted' || m.type === 'run-rejected') && m.requestId === requestId, timeoutMs);
    if (answer.type !== 'run-accepted')
      throw new Error(`the run was refused: ${answer.type === 'run-rejected' ? answer.error : answer.type}`);
    return answer;
  };
  return { socket, inbox, refused, next, send, startRun, closed };
}

export const isEvent =
  (type: RunEvent['type'], runId?: string) =>
  (m: ServerMessage): boolean =>
    m.type === 'run-event' && m.event.type === type && (runId === undefined || m.runId === runId);

/** Ends of a run: its run-finished or run-failed. */
export const isEnd =
  (runId?: string) =>
  (m: ServerMessage): boolean =>
    m.type === 'run-event' &&
    (m.event.type === 'run-finished' || m.event.type === 'run-failed') &&
    (runId === undefined || m.runId === runId);

/** Polls `check` until it is true or the deadline passes (then throws with `what`). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Is a process with this pid alive (and not a zombie)? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie has exited; only its parent has not reaped it yet.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
}

/** What a run left behind: its Redis keys and whether its schema still exists. */
export async function leftovers(redis: Redis, pool: pg.Pool, runId: string): Promise<{ keys: string[]; schema: boolean }> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `racelab:${runId}:*`, 'COUNT', 1000);
    keys.push(...found);
    cursor = next;
  } while (cursor !== '0');
  const { rows } = await pool.query('select 1 from pg_namespace where nspname = $1', [`run_${runId}`]);
  return { keys, schema: rows.length > 0 };
}

/** A run's own store users still there (runs/runCredentials.ts): its Redis ACL user and its PostgreSQL role, in words. */
export async function usersLeft(redis: Redis, pool: pg.Pool, runId: string): Promise<string[]> {
  const name = `racelab_run_${runId}`;
  const aclUsers = (await redis.call('ACL', 'USERS')) as string[];
  const { rows } = await pool.query('select 1 from pg_roles where rolname = $1', [name]);
  return [...(aclUsers.includes(name) ? [`Redis ACL user ${name}`] : []), ...(rows.length > 0 ? [`PostgreSQL role ${name}`] : [])];
}

/** The pids of a run's workers, from its worker-started events. */
export function workerPids(events: RunEvent[]): number[] {
  return events.flatMap((e) => (e.type === 'worker-started' ? [e.pid] : []));
}

/**
 * The pids of a run's workers that did not go back to the warm pool: once the run is over, none
 * of them may be alive. (A worker whose part ended well and that nothing struck serves the next
 * run instead; its worker-exited says `pooled`.)
 */
export function exitedWorkerPids(events: RunEvent[]): number[] {
  const pooled = new Set(events.flatMap((e) => (e.type === 'worker-exited' && e.pooled ? [e.workerId] : [])));
  return events.flatMap((e) => (e.type === 'worker-started' && !pooled.has(e.workerId) ? [e.pid] : []));
}

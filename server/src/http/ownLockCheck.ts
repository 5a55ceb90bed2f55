// A lock module of your own, checked from the page: `POST /api/check-lock` with the module's
// text runs `racelab check --lock` on it in a child process, against the server's own stores.
// The module is code that runs on this machine, so the server does it only when started
// with --allow-own-locks; then one check at a time, from the page's own origin only.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECK_LOCK_COMMAND, CHECK_LOCK_PATH, OWN_LOCK_MAX_BYTES, OWN_LOCKS_PATH, OwnLockChecked } from '@racelab/shared';
import { refuseUpgrade } from './hosts.js';

export interface OwnLockOptions {
  /** The built CLI (dist/cli.js): the check runs as `node <cli> check --lock <file> --json`. */
  cli: string;
  /** The server's stores, handed to the check as REDIS_URL and DATABASE_URL. */
  redisUrl: string;
  databaseUrl: string;
  /** Where the private folder of each upload is made; the system's temp folder by default. */
  scratchRoot?: string;
  /** How long a check may take before it is stopped; every fault takes about a minute. */
  timeoutMs?: number;
}

/** What the page is told when the server was started without the flag. */
export const OWN_LOCKS_OFF =
  `this server does not run lock modules from the page: start it with --allow-own-locks ` +
  `(or RACELAB_ALLOW_OWN_LOCKS=1), or run ${CHECK_LOCK_COMMAND} in a terminal`;

const JAVASCRIPT = /^(text|application)\/javascript(\s*;.*)?$/i;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** The two endpoints; `options` undefined when the server does not run uploaded modules. */
export class OwnLockChecks {
  private busy = false;

  constructor(
    private readonly options: OwnLockOptions | undefined,
    private readonly allowedHosts: readonly string[],
    private readonly redact: (text: string) => string,
  ) {}

  /** Is this request one of ours? */
  handles(request: IncomingMessage): boolean {
    return request.url === CHECK_LOCK_PATH || request.url === OWN_LOCKS_PATH;
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    if (request.url === OWN_LOCKS_PATH) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return answer(response, 200, { allowed: this.options !== undefined, busy: this.busy });
    }
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    // A page of another site could post here without a preflight: only the page's own origin may.
    const refused = refuseUpgrade(request.headers, this.allowedHosts);
    if (refused) return answer(response, 403, { error: refused });
    if (!this.options) return answer(response, 403, { error: OWN_LOCKS_OFF });
    if (!JAVASCRIPT.test(request.headers['content-type'] ?? '')) {
      return answer(response, 415, { error: 'send the lock module as JavaScript text (content-type: text/javascript)' });
    }
    if (Number(request.headers['content-length'] ?? 0) > OWN_LOCK_MAX_BYTES) {
      request.resume(); // read and dropped, so that the client gets to read the answer
      return answer(response, ...TOO_LARGE);
    }
    if (this.busy) return answer(response, 409, { error: 'another lock is being checked on this server: try again in a minute' });
    // Taken before the body is read: a second upload while the first is still arriving is busy too.
    this.busy = true;
    void this.check(request, this.options)
      .catch((error: unknown): Answer => {
        // A temp folder that cannot be made or removed: this check fails, the server carries on.
        console.error(`racelab: checking an uploaded lock failed: ${this.redact(String(error))}`);
        return [500, { error: 'the lock could not be checked: the server could not run the check (see its log)' }];
      })
      .then((answered) => {
        // Free again (and the folder gone) before the answer leaves: whoever reads it may send the next.
        this.busy = false;
        if (answered) answer(response, ...answered);
      });
  }

  private async check(request: IncomingMessage, options: OwnLockOptions): Promise<Answer | null> {
    const body = await readBody(request);
    if (body === 'too large') return TOO_LARGE;
    if (body === 'aborted') return null;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return [400, { error: 'the lock module is not UTF-8 text' }];
    }
    if (text.trim() === '' || text.includes('\0')) return [400, { error: 'the lock module is not JavaScript text' }];
    // A folder of its own (mode 0700), removed afterwards whatever happened.
    const dir = await mkdtemp(join(options.scratchRoot ?? tmpdir(), 'racelab-lock-'));
    try {
      const file = join(dir, 'lock.mjs');
      await writeFile(file, text, { mode: 0o600 });
      const ran = await runCheck(options, file, dir);
      // Held to the wire's schema: the check's own `lock` (this folder's path) stays here.
      const checked = OwnLockChecked.safeParse({ ...lastJsonLine(ran.stdout), exitCode: ran.code });
      if (checked.success) return [200, checked.data];
      const why = ran.timedOut
        ? `the check took longer than ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s and was stopped`
        : this.redact(briefError(ran.stderr, dir)) || `the check ended with exit code ${ran.code} and no result`;
      // Node's report of a module that would not load is lines that point into it: they start a line of their own.
      return [422, { error: `the lock could not be checked:${why.includes('\n') ? '\n' : ' '}${why}` }];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

type Answer = [status: number, body: object];

const TOO_LARGE: Answer = [413, { error: `the lock module is larger than ${OWN_LOCK_MAX_BYTES / 1024} KB` }];

/** The check's JSON: its last line (a module may print lines of its own before it). */
function lastJsonLine(stdout: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function answer(response: ServerResponse, status: number, body: object): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** The body, up to the cap; 'too large' past it (the rest is read and dropped), 'aborted' when the client went away. */
function readBody(request: IncomingMessage): Promise<Buffer | 'too large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > OWN_LOCK_MAX_BYTES) resolve('too large');
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('close', () => resolve('aborted')); // after 'end', too late to matter
    request.on('error', () => resolve('aborted'));
  });
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function runCheck(options: OwnLockOptions, file: string, cwd: string): Promise<Ran> {
  const env = { ...process.env, REDIS_URL: options.redisUrl, DATABASE_URL: options.databaseUrl };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [options.cli, 'check', '--lock', file, '--json'],
      { cwd, env, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const failed = error as (Error & { code?: unknown; killed?: boolean }) | null;
        resolve({
          code: typeof failed?.code === 'number' ? failed.code : failed ? 1 : 0,
          stdout,
          stderr,
          timedOut: failed?.killed === true,
        });
      },
    );
  });
}

/** Node's report of a module that would not load, without the stack and the private folder's path. */
export function briefError(stderr: string, dir: string): string {
  const lines = stderr
    .replaceAll(`${pathToFileURL(dir).href}/`, '')
    .replaceAll(`${dir}/`, '')
    .split('\n')
    .filter((line) => !/^\s+at /.test(line) && !/^Node\.js v\d/.test(line))
    .join('\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
  return lines.length > 2000 ? `${lines.slice(0, 2000)}…` : lines;
}

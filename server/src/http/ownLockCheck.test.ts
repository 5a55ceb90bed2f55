// The check of an uploaded lock module, on the real stores: refused (403, with the way to
// enable it) unless the server allows it; then the two examples give the CLI's verdicts,
// a text that is no module gives its error and leaves the server serving, a second upload
// while one is going is busy (409), a foreign page may not post, and the private folder is
// gone by the time the answer arrives.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECK_LOCK_COMMAND, CHECK_LOCK_PATH, OWN_LOCKS_PATH, OwnLockChecked, OwnLockError, OwnLocksStatus } from '@racelab/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../services/index.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';
import type { Playground } from '../runs/playground.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const example = (file: string) => readFileSync(fileURLToPath(new URL(`../../../examples/locks/${file}`, import.meta.url)), 'utf8');

interface Answered {
  status: number;
  body: unknown;
}

/** Opens a POST of a lock module; `send` ends it with the text, or the caller streams it. */
function post(port: number, headers: Record<string, string> = {}): ClientRequest & { answered: Promise<Answered> } {
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: CHECK_LOCK_PATH,
    headers: { 'content-type': 'text/javascript', ...headers },
  });
  const answered = new Promise<Answered>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (d: Buffer) => (text += d.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    request.on('error', reject);
  });
  return Object.assign(request, { answered });
}

function upload(port: number, text: string, headers?: Record<string, string>): Promise<Answered> {
  const request = post(port, headers);
  request.end(text);
  return request.answered;
}

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(0);
});
afterAll(async () => {
  await playground.close();
});

describe('a server started without --allow-own-locks', () => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp(playground);
  });
  afterAll(() => served.close());

  it('says it does not run uploaded locks, and refuses one with the way to enable it and the command instead', async () => {
    const allowed = await fetch(`http://127.0.0.1:${served.port}${OWN_LOCKS_PATH}`);
    expect(OwnLocksStatus.parse(await allowed.json())).toEqual({ allowed: false, busy: false });
    const { status, body } = await upload(served.port, example('fenced.mjs'));
    expect(status).toBe(403);
    const { error } = OwnLockError.parse(body);
    expect(error).toContain('--allow-own-locks');
    expect(error).toContain('RACELAB_ALLOW_OWN_LOCKS=1');
    expect(error).toContain(CHECK_LOCK_COMMAND);
  });
});

describe('a server started with --allow-own-locks', () => {
  let served: ServedApp;
  let scratch: string;
  beforeAll(async () => {
    // The server's private folders go here, so that the test sees each one gone.
    scratch = mkdtempSync(join(tmpdir(), 'racelab-own-lock-test-'));
    served = await serveApp(playground, {
      ownLocks: {
        cli,
        scratchRoot: scratch,
        redisUrl: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
        databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      },
    });
  });
  afterAll(async () => {
    await served.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('says so', async () => {
    const allowed = await fetch(`http://127.0.0.1:${served.port}${OWN_LOCKS_PATH}`);
    expect(OwnLocksStatus.parse(await allowed.json())).toEqual({ allowed: true, busy: false });
  });

  it('fails the naive SET NX + DEL lock on its release after expiry (exit 1), and leaves no folder behind', async () => {
    const { status, body } = await upload(served.port, example('naive-setnx.mjs'));
    expect(status).toBe(200);
    const result = OwnLockChecked.parse(body);
    expect(result).toMatchObject({ name: 'naive SET NX + DEL', passed: false, exitCode: 1 });
    expect(result.cells.find((c) => c.fault === 'release-after-expiry')?.verdict).toBe('duplicate work');
    expect(result.faults.map((f) => f.id)).toEqual(result.cells.map((c) => c.fault));
    expect(readdirSync(scratch)).toEqual([]);
  }, 120_000);

  it('passes the fenced lock (exit 0)', async () => {
    const { status, body } = await upload(served.port, example('fenced.mjs'));
    expect(status).toBe(200);
    expect(OwnLockChecked.parse(body)).toMatchObject({ passed: true, exitCode: 0 });
  }, 120_000);

  it('is busy while one check is going, answers a text that is no module with its error, and serves on', async () => {
    // The first upload is still arriving (its body not ended): the check is taken.
    const first = post(served.port);
    first.write('export const name = ');
    await expect
      .poll(async () => OwnLocksStatus.parse(await (await fetch(`http://127.0.0.1:${served.port}${OWN_LOCKS_PATH}`)).json()).busy)
      .toBe(true);
    const second = await upload(served.port, example('fenced.mjs'));
    expect(second.status).toBe(409);
    expect(OwnLockError.parse(second.body).error).toContain('another lock is being checked');

    first.end('hello world\n');
    const { status, body } = await first.answered;
    expect(status).toBe(422);
    const { error } = OwnLockError.parse(body);
    expect(error).toContain("SyntaxError: Unexpected identifier 'world'");
    expect(error).toContain('lock.mjs:1');
    // Neither the private folder's path nor Node's stack reaches the page.
    expect(error).not.toContain(scratch);
    expect(error).not.toMatch(/\n\s+at /);
    expect(readdirSync(scratch)).toEqual([]);

    const catalog = await fetch(`http://127.0.0.1:${served.port}/api/catalog`);
    expect(catalog.status).toBe(200);
    expect(((await catalog.json()) as unknown[]).length).toBeGreaterThan(0);
    // Free again: the next upload is checked (a module with no create() says so).
    const next = await upload(served.port, 'export const name = "nothing";\n');
    expect(next.status).toBe(422);
    expect(OwnLockError.parse(next.body).error).toContain('lock.mjs exports no create(connections)');
  }, 60_000);

  it('refuses a foreign page, a body that is not JavaScript, and one past the size cap', async () => {
    const foreign = await upload(served.port, example('fenced.mjs'), { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(OwnLockError.parse(foreign.body).error).toContain("foreign Origin 'https://evil.example'");
    const sameOrigin = await upload(served.port, '', { origin: `http://127.0.0.1:${served.port}` });
    expect(sameOrigin.status).toBe(400); // past the origin check: its empty body is what is refused
    const form = await upload(served.port, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const huge = await upload(served.port, `// ${'x'.repeat(300 * 1024)}\n`);
    expect(huge.status).toBe(413);
    expect(OwnLockError.parse(huge.body).error).toContain('larger than 256 KB');
    expect(readdirSync(scratch)).toEqual([]);
  });
});

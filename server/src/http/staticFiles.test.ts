// The built page's files, and only them: a symbolic link that leads out of the served
// folder is refused, one that stays inside is served; every answer says nosniff.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './staticFiles.js';

const outside = mkdtempSync(path.join(os.tmpdir(), 'racelab-outside-'));
const root = mkdtempSync(path.join(os.tmpdir(), 'racelab-root-'));
let server: Server;
let port: number;
beforeAll(async () => {
  writeFileSync(path.join(outside, 'secret.txt'), 'not for pages');
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>racelab</title>');
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'leak.txt'));
  symlinkSync(outside, path.join(root, 'away'));
  symlinkSync(path.join(root, 'assets', 'app.js'), path.join(root, 'alias.js'));
  server = createServer((request, response) => serveStatic(root, request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const fetchPath = (p: string): Promise<{ status: number; body: string; nosniff: string | undefined }> =>
  new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: p }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, nosniff: res.headers['x-content-type-options'] as string | undefined }),
      );
    }).on('error', reject);
  });

describe('static files', () => {
  it('serves a file of the page, and a link that stays inside the folder', async () => {
    expect(await fetchPath('/assets/app.js')).toEqual({ status: 200, body: 'console.log(1)', nosniff: 'nosniff' });
    expect((await fetchPath('/alias.js')).body).toBe('console.log(1)');
    expect((await fetchPath('/')).body).toContain('<title>racelab</title>');
  });

  it('answers a page route at the root with the page, and a deeper path that names no file with a 404', async () => {
    // The page's asset URLs are relative (./assets/…): they load from any path at the root's level.
    for (const p of ['/?scenario=fencing&variant=fenced', '/?replay=fencing-fenced.json&t=120', '/fencing'])
      expect(await fetchPath(p)).toMatchObject({ status: 200, body: expect.stringContaining('<title>racelab</title>') as unknown });
    for (const p of ['/assets/gone.js', '/runs/abc', '/fencing/'])
      expect(await fetchPath(p)).toMatchObject({ status: 404, body: 'not found\n' });
  });

  it.each([
    ['a link to a file outside', '/leak.txt'],
    ['a file under a link to a folder outside', '/away/secret.txt'],
  ])('refuses %s', async (_what, p) => {
    const answer = await fetchPath(p);
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('not for pages');
  });
});

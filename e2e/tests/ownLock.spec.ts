// "Check your own lock" in the scorecard view: the server under test was started without
// --allow-own-locks, so the page says so, with the command instead, and the file input is
// off (as it is with no server at all, from static files); a second server started with the flag runs the naive SET NX + DEL lock the user
// picks through every fault, and the page shows its release after expiry failing.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { CHECK_LOCK_COMMAND, Scorecard } from '@racelab/shared';
import { startStaticServer } from './staticServer.js';

const card = Scorecard.parse(JSON.parse(readFileSync(new URL('../../docs/scorecard.json', import.meta.url), 'utf8')));
const naive = fileURLToPath(new URL('../../examples/locks/naive-setnx.mjs', import.meta.url));
const main = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));

test('a server started without --allow-own-locks says so, gives the command, and takes no file', async ({ page }) => {
  await page.goto('/?scorecard=1');
  const section = page.getByRole('region', { name: 'Check your own lock' });
  await expect(section).toContainText(`This server was not started with --allow-own-locks`);
  await expect(section).toContainText(`run ${CHECK_LOCK_COMMAND} in a terminal instead`);
  await expect(section.getByLabel('Lock module (.mjs or .js)')).toBeDisabled();
  // The matrix above is all there.
  await expect(page.getByRole('table', { name: 'Lock libraries (rows) under each fault (columns)' })).toBeVisible();
});

test('served from static files, with no server behind it, the page says so and takes no file', async ({ page }) => {
  const server = await startStaticServer();
  try {
    await page.goto(`${server.url}/?scorecard=1`);
    const section = page.getByRole('region', { name: 'Check your own lock' });
    await expect(section).toContainText(`There is no racelab server behind this page to run a lock module: run ${CHECK_LOCK_COMMAND}`);
    await expect(section.getByLabel('Lock module (.mjs or .js)')).toBeDisabled();
  } finally {
    await server.close();
  }
});

test.describe('a server started with --allow-own-locks', () => {
  let server: ChildProcess;
  let address: string;
  test.beforeAll(async () => {
    // A free port (PORT=0); the address is read from what it prints once it listens.
    server = spawn(process.execPath, [main, '--allow-own-locks'], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    address = await new Promise<string>((resolve, reject) => {
      server.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        const found = /playground on (http:\/\/\S+)/.exec(output)?.[1];
        if (found) resolve(found);
      });
      server.on('exit', () => reject(new Error(`the server exited: ${output}`)));
    });
  });
  test.afterAll(async () => {
    // SIGTERM: it drops what it made and stops its workers before it exits.
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });

  test('checks the lock the user picks and shows its release after expiry failing', async ({ page }) => {
    test.setTimeout(200_000);
    await page.goto(`${address}/?scorecard=1`);
    const section = page.getByRole('region', { name: 'Check your own lock' });
    const input = section.getByLabel('Lock module (.mjs or .js)');
    await expect(input).toBeEnabled();
    await input.setInputFiles(naive);
    await expect(section.getByRole('status')).toHaveText('Checking naive-setnx.mjs… every fault, about a minute.');
    await expect(input).toBeDisabled();

    const lines = section.getByRole('list', { name: 'Your lock under each fault' });
    // Every fault takes about a minute on a slow machine.
    await expect(lines.getByRole('listitem')).toHaveCount(card.faults.length, { timeout: 150_000 });
    await expect(section).toContainText('naive SET NX + DEL (from naive-setnx.mjs) failed: not every fault that applies is handled.');
    const title = card.faults.find((f) => f.id === 'release-after-expiry')!.title;
    const line = lines.getByRole('listitem').filter({ hasText: `${title}: duplicate work` });
    await expect(line).toHaveCount(1);
    // In the colour of a failed cell of the matrix.
    await expect(line).toHaveClass(/\bfailed\b/);
    await expect(input).toBeEnabled();
  });
});

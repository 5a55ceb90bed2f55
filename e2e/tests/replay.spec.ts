// Record and replay with the services stopped: the built page served by a plain static
// server (no racelab server, no /ws, no Redis, no PostgreSQL) opens a shipped recording
// from a link, plays it again, and opens a recording file the user downloaded earlier.
// Every shipped recording (index.json) is opened the same way, with no socket, and held to
// the verdict and numbers its run ended with, in presenter.spec.ts (at two screen sizes).
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { startStaticServer, type StaticServer } from './staticServer.js';

let server: StaticServer;
test.beforeAll(async () => {
  server = await startStaticServer();
});
test.afterAll(async () => {
  await server.close();
});

test('a shipped recording replays from a link with no server at all', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(`${server.url}/?replay=duplicate-job-blind-del.json`);
  // No server is needed, so none is looked for: no socket, no "reconnecting…".
  await expect(page.getByRole('status').filter({ hasText: 'offline: a recorded run, no server needed' })).toBeVisible();
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict).toContainText('E-mails sent: 3 — should be 1');
  await expect(verdict).toContainText('recorded run');
  await expect(verdict.getByRole('list', { name: 'What happened' })).toContainText('workers at once — the lock said 1');
  const timeline = page.getByRole('region', { name: 'Timeline' });
  for (const worker of ['worker-1', 'worker-2', 'worker-3'])
    await expect(timeline.getByRole('group', { name: worker, exact: true })).toBeVisible();
  await expect(timeline.getByRole('img', { name: /^worker-1 zombie on lock:nightly-report/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Code' })).toContainText('blind-del');

  // Played again as it happened: running, then the same verdict.
  await page.getByRole('button', { name: 'Replay the run' }).click();
  await expect(verdict.getByRole('status')).toHaveText('Replaying…');
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict).toContainText('E-mails sent: 3 — should be 1');
  await expect(page.getByRole('status').filter({ hasText: /connecting/ })).toHaveCount(0);
  expect(sockets).toEqual([]);
});

test('a recording opens from the shipped list and from a file', async ({ page }) => {
  await page.goto(server.url);
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await page.getByRole('combobox', { name: 'Shipped with racelab' }).selectOption({ label: 'Fencing tokens: fenced (correct) — PASS' });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(verdict.getByRole('status')).toHaveText(/^PASS/);
  await expect(verdict.getByRole('list', { name: 'What happened' })).toContainText('the row refused it');

  const file = new URL('../../web/dist/recordings/lost-update-read-modify-write.json', import.meta.url);
  await page.getByLabel('Open recording').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: await readFile(file) });
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict).toContainText('Final stock: 8 — should be 5');
  await expect(verdict.getByRole('list', { name: 'What happened' })).toContainText("admin-1's write was lost");

  await page
    .getByLabel('Open recording')
    .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"nope"}') });
  await expect(page.getByRole('alert')).toContainText('not a racelab recording');
});

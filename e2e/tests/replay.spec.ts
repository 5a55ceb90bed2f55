// Record and replay with the services stopped: the built page served by a plain static
// server (no racelab server, no /ws, no Redis, no PostgreSQL) opens a shipped recording
// from a link, plays it again, and opens a recording file the user downloaded earlier;
// every shipped recording (index.json) shows the verdict and the numbers its run ended with.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { verdictLine, type EventOf, type Recording } from '@racelab/shared';
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

test('every shipped recording opens with no socket and shows the verdict its run ended with', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  // What the page is served, not a list kept here: a new recording is covered with no edit.
  const list = (await (await page.request.get(`${server.url}/recordings/index.json`)).json()) as { file: string; title: string }[];
  expect(list.length).toBeGreaterThan(0);
  test.setTimeout(30_000 + list.length * 10_000);
  for (const { file } of list) {
    await test.step(file, async () => {
      const recording = (await (await page.request.get(`${server.url}/recordings/${file}`)).json()) as Recording;
      expect(recording.events.at(-1)?.type, `${file} ends with run-finished`).toBe('run-finished');
      const finished = recording.events.at(-1) as EventOf<'run-finished'>;
      const variant = recording.scenario.variants.find((v) => v.id === recording.variant)!;

      await page.goto(`${server.url}/?replay=${file}`);
      await expect(page.getByRole('status').filter({ hasText: 'offline: a recorded run, no server needed' })).toBeVisible();
      const verdict = page.getByRole('region', { name: 'Verdict' });
      await expect(verdict.getByRole('status')).toHaveText(finished.verdict === 'pass' ? /^PASS — / : /^FAIL — /);
      await expect(verdict).toContainText(`${recording.scenario.id} · ${variant.id} (${variant.correct ? 'correct' : 'broken'})`);
      await expect(verdict).toContainText('recorded run');
      // As expected: no "NOT as expected" warning (nor a run-failed message) in the panel.
      await expect(verdict.getByRole('alert')).toHaveCount(0);
      const lines = verdict.getByRole('list', { name: 'Numbers' }).getByRole('listitem');
      await expect(lines).toHaveCount(finished.expectations.length);
      for (const [i, e] of finished.expectations.entries()) {
        const metric = recording.scenario.metrics.find((m) => m.name === e.metric);
        await expect(lines.nth(i)).toContainText(`${e.held ? '✓ held' : '✗ not held'} ${verdictLine(e, metric)}`);
      }
      expect(sockets, `sockets opened by ${file}`).toEqual([]);
    });
  }
});

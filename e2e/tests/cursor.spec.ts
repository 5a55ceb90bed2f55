// One cursor for the whole page: stepping holds it at a moment and everything shown (lanes,
// verdict, story) is the run as it stood then; Esc brings the end back. Space replays the
// same log by moving that cursor, pauses it where it is, and goes on from there. Served
// statically from a shipped recording: no server, so the runs are the same every time.
import { expect, test } from '@playwright/test';
import { startStaticServer, type StaticServer } from './staticServer.js';

let server: StaticServer;
test.beforeAll(async () => {
  server = await startStaticServer();
});
test.afterAll(async () => {
  await server.close();
});

const HELD = /^At \S+ (ms|s) \(playhead\) — Esc for now$/;

test('a held playhead shows the run as it stood then; Esc shows its end again', async ({ page }) => {
  await page.goto(`${server.url}/?replay=fencing-lease-only.json`);
  const verdict = page.getByRole('region', { name: 'Verdict' });
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const zombie = timeline.getByRole('img', { name: /^worker-1 zombie on lock:document/ });
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(zombie).toBeVisible();

  // From the end, a step forward goes to the run's first moment: nothing has gone wrong yet.
  await page.keyboard.press('.');
  await expect(verdict.getByRole('status')).toHaveText(HELD);
  await expect(verdict.getByRole('list', { name: 'Numbers' })).toHaveCount(0);
  await expect(zombie).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict.getByRole('list', { name: 'Numbers' })).toBeVisible();
  await expect(zombie).toBeVisible();
});

test('Space replays the run, pauses it where it is, and goes on to the same verdict', async ({ page }) => {
  await page.goto(`${server.url}/?replay=fencing-lease-only.json`);
  const status = page.getByRole('region', { name: 'Verdict' }).getByRole('status');
  await expect(status).toHaveText(/^FAIL/);
  // The recording lasts some 3 s: slowed down, a pause lands well inside it.
  await page.keyboard.press('s');
  await page.keyboard.press('s');
  await page.keyboard.press('Space');
  await expect(status).toHaveText('Replaying…');
  await page.keyboard.press('Space');
  await expect(status).toHaveText(HELD);
  const pausedAt = await status.textContent();
  // Paused means the cursor stays: the same moment a while later.
  await page.waitForTimeout(600);
  await expect(status).toHaveText(pausedAt!);

  await page.keyboard.press('Space');
  await expect(status).toHaveText('Replaying…');
  await expect(status).toHaveText(/^FAIL/, { timeout: 30_000 });
});

// The page's socket is held by its tick worker (web/src/ticks/). A page whose worker cannot
// start (its script not served, as behind a proxy that blocks it) holds its socket itself and
// draws the run on its main thread: it connects, runs and shows the verdict all the same.
import { expect, test } from '@playwright/test';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

test('a page whose tick worker cannot start holds its own socket and shows the run', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  let refused = 0;
  await page.route(/\/assets\/tickWorker-[^/]*\.js$/, (route) => {
    refused++;
    return route.fulfill({ status: 404, body: 'not here' });
  });
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await openPlayground(page, '/?scenario=duplicate-job&variant=token-lua');
  expect(refused, "the worker's script was asked for and refused").toBe(1);
  await expect.poll(() => warnings).toContain('racelab: the tick worker failed; the page holds its socket and draws on the main thread');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
  await expect(verdict).toContainText('E-mails sent: 1 — should be 1');
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('img', { name: /^worker-\d write to email accepted at \d+ ms$/ })).toHaveCount(1);
  // One socket, the page's: the worker never ran to open one.
  expect(sockets).toHaveLength(1);
  expect(page.workers()).toHaveLength(0);
});

// The instructor's room view in a browser: behind its token, it shows the pages connected and
// the run going in another tab, then the run's scenario in its table, as the room changes.
// Screenshots at a projector's 1280×720 and a phone's 390×844 are kept in the system's
// temporary folder for a person to look at.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

const ROOM_TOKEN = process.env.RACELAB_E2E_ROOM_TOKEN!;

/** A big figure of the room, as a number. */
async function figure(room: Page, name: 'Connected' | 'Running' | 'Waiting'): Promise<number> {
  return Number(await room.locator(`#${name.toLowerCase()}`).textContent());
}

async function runsOf(room: Page, scenario: string): Promise<number> {
  const row = room.getByRole('row').filter({ has: room.getByRole('rowheader', { name: scenario, exact: true }) });
  if ((await row.count()) === 0) return 0;
  return Number(await row.getByRole('cell').first().textContent());
}

test('the room view asks for its token', async ({ page }) => {
  const response = await page.goto('/room?token=wrong');
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('needs its token');
});

test('the room view shows a page connecting and its run, live', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 }, colorScheme: 'light' });
  const room = await context.newPage();
  await room.goto(`/room?token=${ROOM_TOKEN}`);
  await expect(room.getByRole('heading', { level: 1, name: 'The room' })).toBeVisible();
  await expect(room.getByRole('status')).toHaveText(/^Live: \d+ servers?, updated/);
  const connected = await figure(room, 'Connected');
  const runs = await runsOf(room, 'duplicate-job');

  // Another tab, as a participant: it connects, then starts a run that stays live a while.
  const participant = await context.newPage();
  await openPlayground(participant, '/?scenario=duplicate-job&variant=no-lock&p.workMs=10000&speed=0.25');
  await expect.poll(() => figure(room, 'Connected')).toBeGreaterThan(connected);
  await participant.locator('body').press('r');
  await expect(participant.getByRole('button', { name: 'Cancel run' })).toBeVisible();
  await expect.poll(() => figure(room, 'Running')).toBeGreaterThan(0);
  await room.screenshot({ path: join(tmpdir(), 'room-1280x720.png') });

  await participant.getByRole('button', { name: 'Cancel run' }).click();
  await expect(participant.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: RUN_TIMEOUT });
  await expect.poll(() => runsOf(room, 'duplicate-job')).toBeGreaterThan(runs);
  await expect.poll(() => figure(room, 'Running')).toBe(0);
  await room.screenshot({ path: join(tmpdir(), 'room-1280x720-after.png') });

  await room.setViewportSize({ width: 390, height: 844 });
  // Nothing wider than the phone but the tables, which scroll inside their own box.
  const overflow = await room.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await room.screenshot({ path: join(tmpdir(), 'room-390x844.png'), fullPage: true });
  await room.emulateMedia({ colorScheme: 'dark' });
  await room.screenshot({ path: join(tmpdir(), 'room-390x844-dark.png'), fullPage: true });
  await context.close();
});

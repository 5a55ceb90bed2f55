// On a 390 px phone the page is laid out 390 px wide: nothing is wider than the screen,
// Run is in sight at load, a run brings the timeline into sight, and the timeline fits on
// one screen and pans inside its own box.
import { expect } from '@playwright/test';
import { boxOf, expectInsideViewport, expectNoWiderThanViewport, timelineOf, verdictStatus } from './layout.js';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';
import { test } from './socketProxy.js';

test.use({ viewport: { width: 390, height: 844 } });

test('390 px wide, Run in sight, the timeline inside the screen and panning in its own box', async ({ page }, testInfo) => {
  // fencing: a run of about three seconds, long enough to look at it in progress.
  await openPlayground(page, '/?scenario=fencing');
  await expectNoWiderThanViewport(page);
  const run = page.getByRole('button', { name: 'Run', exact: true });
  await expectInsideViewport(page, run);
  await run.click();

  const timeline = timelineOf(page);
  await expect(verdictStatus(page)).toHaveText('Running…');
  // The run brings the stage into sight: the race, not the form, with no scrolling by hand.
  await expect(timeline.getByRole('group', { name: 'worker-1', exact: true })).toBeInViewport();
  await expect(timeline.getByRole('group', { name: 'worker-2', exact: true })).toBeVisible();
  const during = await boxOf(timeline);
  await expect(verdictStatus(page)).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
  await expectNoWiderThanViewport(page);
  // The verdict arrived under the timeline: the timeline did not move.
  expect(await boxOf(timeline)).toEqual(during);
  await expectInsideViewport(page, timeline);

  // The lanes are wider than the screen, so they pan inside the timeline, not the page.
  const lanes = timeline.getByRole('group', { name: /^Marks of the runs/ });
  const pans = await lanes.evaluate((el) => {
    const box = el.parentElement!;
    return { scroll: box.scrollWidth, client: box.clientWidth };
  });
  expect(pans.scroll).toBeGreaterThan(pans.client);
  const path = testInfo.outputPath('phone-fencing.png');
  await page.screenshot({ path });
  await testInfo.attach('phone-fencing', { path, contentType: 'image/png' });
});

test("while the workers start, the note sits over the lanes' tracks, whole and in sight, beside their labels", async ({
  page,
  socketProxy,
}) => {
  // The page is shown no run events: it stays where a taken run's workers are starting.
  socketProxy.onServerMessage = (text) => !text.includes('"run-event');
  await openPlayground(page, socketProxy.origin + '/?scenario=duplicate-job');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const timeline = timelineOf(page);
  const lane = timeline.getByRole('group', { name: 'worker-1', exact: true });
  await expect(lane).toBeInViewport();
  const note = timeline.getByText('Starting the workers…');
  await expect(note).toBeInViewport({ ratio: 1 });
  const label = await boxOf(lane.locator('.tl-label'));
  const text = await note.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  // The words start right of the label column, and end inside the screen.
  expect(text.x).toBeGreaterThanOrEqual(label.x + label.width);
  expect(text.x + text.width).toBeLessThanOrEqual(390);
  await expectNoWiderThanViewport(page);
});

test('presenter mode on a phone stays 390 px wide', async ({ page }) => {
  await openPlayground(page);
  await page.locator('body').press('p');
  await expect(page.getByRole('group', { name: 'On stage' })).toBeVisible();
  await expectNoWiderThanViewport(page);
  await expectInsideViewport(page, page.getByRole('group', { name: 'On stage' }).getByRole('button', { name: 'Run', exact: true }));
});

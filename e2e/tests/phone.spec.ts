// On a 390 px phone the page is laid out 390 px wide: nothing is wider than the screen,
// the first screen shows the scenario's story, Run (Replay with no server) and the top of
// the timeline, the controls are a drawer one tap away (and a keyboard's too), a run brings
// the timeline into sight, and the whole run fits the timeline's width (nothing scrolls
// sideways) with its verdict's headline in sight under it.
import { expect, type Page } from '@playwright/test';
import { boxOf, expectInsideViewport, expectNoWiderThanViewport, timelineOf, verdictStatus } from './layout.js';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';
import { test } from './socketProxy.js';
import { startStaticServer } from './staticServer.js';

test.use({ viewport: { width: 390, height: 844 } });

const FENCING_STORY = /^A worker's process stops while it holds a lease/;

/**
 * The whole run fits the screen's width: neither the page nor the timeline's own box scrolls
 * sideways, and the run's last mark (its highest sequence number) lies inside the screen.
 */
async function expectWholeRunInWidth(page: Page): Promise<void> {
  const lanes = timelineOf(page).getByRole('group', { name: /^Marks of the runs/ });
  const widths = await lanes.evaluate((el) => {
    const box = el.parentElement!;
    return {
      scroll: box.scrollWidth,
      client: box.clientWidth,
      page: document.documentElement.scrollWidth,
      pageClient: document.documentElement.clientWidth,
    };
  });
  expect(widths.scroll, "the timeline's box scrolls sideways").toBeLessThanOrEqual(widths.client);
  expect(widths.page, 'the page scrolls sideways').toBeLessThanOrEqual(widths.pageClient);
  const last = await lanes.locator('[data-mark]').evaluateAll((marks) => {
    const seq = (m: Element) => Number(/^mark-(\d+)$/.exec(m.getAttribute('data-mark') ?? '')?.[1] ?? -1);
    const mark = marks.reduce((a, b) => (seq(b) > seq(a) ? b : a));
    const r = (mark.querySelector('.glyph') ?? mark).getBoundingClientRect();
    return { id: mark.getAttribute('data-mark'), left: r.left, right: r.right };
  });
  expect(last.left, `${last.id}, the run's last mark`).toBeGreaterThanOrEqual(0);
  expect(last.right, `${last.id}, the run's last mark`).toBeLessThanOrEqual(390);
}

/** At load, before any scroll: the story, the given button and the timeline's top edge on the first screen, nothing wider. */
async function expectRaceFirst(page: Page, button: string): Promise<void> {
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expectInsideViewport(page, page.getByText(FENCING_STORY));
  await expectInsideViewport(page, page.getByRole('button', { name: button, exact: true }));
  const timeline = await boxOf(timelineOf(page));
  expect(timeline.y).toBeGreaterThanOrEqual(0);
  expect(timeline.y).toBeLessThan(844);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The catalogue, the variants and libraries, the parameters: in the drawer, not above the timeline.
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeHidden();
  await expect(page.getByRole('radiogroup', { name: 'Variant' })).toBeHidden();
}

test('the first screen shows the race: the story, Run and the top of the timeline; the controls one tap away', async ({ page }) => {
  await openPlayground(page, '/?scenario=fencing');
  await expectRaceFirst(page, 'Run');
  await expect(page.getByRole('button', { name: 'Setup: fencing, lease-only (broken)' })).toBeInViewport();

  // One tap opens the drawer: scenario, variants and libraries, parameters, breakpoints, speed, compare.
  await page.getByRole('button', { name: /^Setup/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Controls' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  await expect(drawer.getByRole('radio', { name: 'fenced (correct)', exact: true })).toBeVisible();
  await expect(drawer.getByRole('radio', { name: 'lib-redlock (broken)', exact: true })).toBeVisible();
  await expectNoWiderThanViewport(page);
  await drawer.getByRole('radio', { name: 'fenced (correct)', exact: true }).check();
  await drawer.getByRole('button', { name: 'Close the setup' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Setup: fencing, fenced (correct)' })).toBeVisible();
});

test('the drawer from the keyboard: Enter opens it with the focus inside, Tab stays in it, Escape closes it and gives the focus back', async ({
  page,
}) => {
  await openPlayground(page, '/?scenario=duplicate-job');
  const opener = page.getByRole('button', { name: /^Setup/ });
  await opener.focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Controls' });
  await expect(drawer).toBeVisible();
  await expect(opener).toHaveAttribute('aria-expanded', 'true');
  await expect(drawer.getByRole('button', { name: 'Close the setup' })).toBeFocused();

  // Every control in it is reached by Tab, and Tab never leaves it (it wraps around).
  const seen: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { inside: !!el.closest('[role="dialog"]'), name: el.getAttribute('aria-label') ?? el.id ?? el.textContent };
    });
    expect(where.inside, `Tab ${i + 1} left the drawer for ${where.name}`).toBe(true);
    seen.push(where.name ?? '');
  }
  expect(seen).toContain('scenario-select');
  expect(seen).toContain('param-workers');
  expect(seen.some((n) => /\((broken|correct)\)$/.test(n))).toBe(true);
  expect(seen).toContain('Close the setup');

  // Keys typed in a field stay there; Escape closes the drawer and the focus goes back.
  await drawer.getByRole('spinbutton', { name: 'Workers', exact: true }).fill('4');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(opener).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeHidden();
});

test('with no server, a recording from a link: the story, Replay and the top of the timeline on the first screen', async ({ page }) => {
  const server = await startStaticServer();
  try {
    await page.goto(`${server.url}/?replay=fencing-lease-only.json`);
    await expect(verdictStatus(page)).toHaveText(/^FAIL/);
    await expectRaceFirst(page, 'Replay');
    // The whole run across the screen, and its verdict with it on the first screen.
    await expectWholeRunInWidth(page);
    await expectInsideViewport(page, verdictStatus(page));
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect(verdictStatus(page)).toHaveText('Replaying…');
    await expect(verdictStatus(page)).toHaveText(/^FAIL/);
    await expectNoWiderThanViewport(page);
  } finally {
    await server.close();
  }
});

test('390 px wide, Run in sight; the whole run fits the width, nothing scrolls sideways, and the verdict is in sight with it', async ({
  page,
}, testInfo) => {
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
  // The verdict arrived under the timeline: the timeline did not move, and both are in sight.
  expect(await boxOf(timeline)).toEqual(during);
  await expectInsideViewport(page, timeline);
  await expectInsideViewport(page, verdictStatus(page));
  await expectWholeRunInWidth(page);
  const path = testInfo.outputPath('phone-fencing.png');
  await page.screenshot({ path });
  await testInfo.attach('phone-fencing', { path, contentType: 'image/png' });

  // By keyboard: Tab from the timeline's Export enters the marks; End goes to the lane's
  // last, which is in sight, nothing scrolled sideways to show it.
  await timeline.getByText('Export', { exact: true }).focus();
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus');
  await expect(focused).toHaveAttribute('role', 'img');
  await page.keyboard.press('End');
  await expect(focused).toHaveAttribute('role', 'img');
  await expectInsideViewport(page, focused);
  await expectWholeRunInWidth(page);
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

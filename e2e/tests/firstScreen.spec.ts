// The first screen at 1280×720 teaches: duplicate-job is on stage, Run is in sight with its
// key, the timeline fits, a refused run says why wherever it was asked for, and nothing
// moves when the verdict arrives.
import { expect, test } from '@playwright/test';
import { boxOf, expectInsideViewport, expectNoWiderThanViewport, timelineOf, verdictStatus } from './layout.js';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

test.use({ viewport: { width: 1280, height: 720 } });

test('duplicate-job at load, Run in sight, and the timeline fits the screen', async ({ page }) => {
  await openPlayground(page);
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue('duplicate-job');
  await expect(page.getByRole('radio', { name: 'no-lock (broken)', exact: true })).toBeChecked();
  const run = page.getByRole('button', { name: 'Run', exact: true });
  await expect(run).toHaveAttribute('aria-keyshortcuts', 'R');
  await expectInsideViewport(page, run);
  await expectInsideViewport(page, timelineOf(page));
  await expectNoWiderThanViewport(page);

  // One key runs it.
  await page.locator('body').press('r');
  await expect(verdictStatus(page)).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
  await expectInsideViewport(page, timelineOf(page));
  await expectInsideViewport(page, run);
  await expectNoWiderThanViewport(page);
});

test('nothing moves when the verdict arrives; labels are whole and apart', async ({ page }) => {
  // At a quarter of the speed: the run stays live some ten seconds, a wide window to measure it in.
  await openPlayground(page, '/?scenario=fencing&speed=0.25');
  const timeline = timelineOf(page);
  // The lanes' box (the legend under it grows with the shapes the run draws, moving no lane).
  const lanes = timeline.getByRole('group', { name: /^Marks of the runs/ }).locator('..');
  const before = { timeline: await boxOf(timeline) };
  await page.locator('body').press('r');
  await expect(verdictStatus(page)).toHaveText('Running…');
  await expect(timeline.getByRole('group', { name: 'worker-2', exact: true })).toBeVisible();
  const during = { timeline: await boxOf(timeline) };
  // While the run is live, the "now" label and the tick labels do not overlap (both are
  // drawn for the eye only, so they are measured by their boxes), measured in one go in the
  // page as soon as a frame draws the live edge; so is the lanes' top.
  const handle = await timeline.evaluateHandle((el) => el);
  const overlaps = await page.waitForFunction((el) => {
    const now = el.querySelector('.live-edge.live .live-label')?.getBoundingClientRect();
    if (!now) return null;
    const overlapping = Array.from(el.querySelectorAll<HTMLElement>('.tick'))
      .filter((t) => t.style.display !== 'none')
      .map((t) => t.getBoundingClientRect())
      .filter((t) => t.right > now.left && t.left < now.right && t.bottom > now.top && t.top < now.bottom).length;
    const lanesTop = el.querySelector('.tl-body')!.parentElement!.getBoundingClientRect().y;
    return { overlapping, lanesTop }; // an object: a count of 0 would read as "not yet"
  }, handle);
  const live = (await overlaps.jsonValue())!; // waitForFunction resolves on a value, never on null
  expect(live.overlapping).toBe(0);
  await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('list', { name: 'Numbers' })).toBeVisible();
  const after = { timeline: await boxOf(timeline), lanesTop: (await boxOf(lanes)).y };
  expect(during).toEqual(before);
  expect(after).toEqual({ ...before, lanesTop: live.lanesTop });
  // The legend is under the lanes and names only what this run drew.
  const legend = await boxOf(timeline.getByRole('list', { name: 'Legend' }));
  expect(legend.y).toBeGreaterThan(after.lanesTop);
  await expect(timeline.getByRole('list', { name: 'Legend' }).locator('[aria-disabled="true"]')).toHaveCount(0);
  // Lane names and facts are whole: none is cut short.
  const cut = await timeline.evaluate((el) =>
    Array.from(el.querySelectorAll<HTMLElement>('.tl-label *'))
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent),
  );
  expect(cut).toEqual([]);
});

test('R with an invalid parameter shows the refusal in sight; an empty field says what it takes', async ({ page }) => {
  await openPlayground(page);
  const workers = page.getByRole('spinbutton', { name: 'Workers', exact: true });
  await workers.fill('0');
  await workers.blur(); // keys typed into a field stay there
  await page.locator('body').press('r');
  const refusal = page.getByRole('alert').filter({ hasText: 'The run did not start' });
  await expect(refusal).toHaveText(/The run did not start: parameter 'workers' must be an integer from 1 to \d+, got 0/);
  await expectInsideViewport(page, refusal);

  // Typing again clears the refusal; an emptied field says it is empty and what it takes.
  await workers.fill('');
  await expect(refusal).toHaveCount(0);
  await expect(page.getByText(/^parameter 'workers' is empty: it must be an integer from 1 to \d+$/)).toBeVisible();
  await expect(page.getByText(/got $/)).toHaveCount(0);
  await workers.blur();
  await page.locator('body').press('r');
  await expect(refusal).toHaveText(/The run did not start: parameter 'workers' is empty: it must be an integer from 1 to \d+/);
  await expectInsideViewport(page, refusal);
});

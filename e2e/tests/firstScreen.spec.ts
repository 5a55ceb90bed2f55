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

test('nothing moves when the verdict arrives', async ({ page }) => {
  await openPlayground(page, '/?scenario=fencing');
  const timeline = timelineOf(page);
  const before = await boxOf(timeline);
  await page.locator('body').press('r');
  await expect(verdictStatus(page)).toHaveText('Running…');
  await expect(timeline.getByRole('group', { name: 'worker-2', exact: true })).toBeVisible();
  const during = await boxOf(timeline);
  await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('list', { name: 'Numbers' })).toBeVisible();
  const after = await boxOf(timeline);
  expect(during).toEqual(before);
  expect(after).toEqual(before);
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

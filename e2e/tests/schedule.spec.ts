// A failure the explorer found opens from a link and replays live: the link names the
// scenario, variant, parameters and the schedule's decisions; opening it runs nothing, and
// Run plays the schedule on real workers to the failing verdict it was found with, in presenter
// mode too, whose stage bar says so. The
// schedule is duplicate-job no-lock's smallest failing one, written by the real explorer
// (npm run explore -- duplicate-job --variant no-lock --param workers=3 --first).
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseScheduleFile, scheduleQuery } from '@racelab/shared';

const file = parseScheduleFile(readFileSync(new URL('./schedules/duplicate-job-no-lock.schedule.json', import.meta.url), 'utf8'));

test('a link replays the smallest failing schedule of duplicate-job no-lock live', async ({ page }) => {
  if (!file.ok) throw new Error(file.error);
  const { schedule } = file;
  await page.goto(`/${scheduleQuery(schedule)}`);
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'no-lock (broken)', exact: true })).toBeChecked();
  await expect(page.getByText(`Run replays a schedule the explorer found: ${schedule.choices.length} decisions`)).toBeVisible();
  const verdict = page.getByRole('region', { name: 'Verdict' });
  // Restored, not run.
  await expect(verdict.getByRole('status')).toHaveText('No run yet: choose a variant and press Run.');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  // The verdict the explorer found it with.
  expect(schedule.verdict).toContain('E-mails sent: 3 — should be 1');
  await expect(verdict).toContainText('E-mails sent: 3 — should be 1');
  await expect(page).toHaveURL(/[?&]schedule=worker-1,worker-2,worker-3,/);
});

test('in presenter mode the stage bar says that Run replays the link’s schedule, and the run gives its verdict', async ({ page }) => {
  if (!file.ok) throw new Error(file.error);
  const { schedule } = file;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/${scheduleQuery(schedule)}&presenter=1`);
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  const bar = page.getByRole('group', { name: 'On stage' });
  const said = bar.getByText(`Run replays a schedule the explorer found: ${schedule.choices.length} decisions, in their order.`);
  await expect(said).toBeInViewport({ ratio: 1 });
  await bar.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('E-mails sent: 3 — should be 1', { timeout: 60_000 });
});

test('a link whose schedule names a worker the run lacks is refused in the server’s words', async ({ page }) => {
  await page.goto('/?scenario=duplicate-job&variant=no-lock&p.workers=2&schedule=worker-1,worker-3');
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('the schedule names worker-3, not a worker of this run (worker-1, worker-2)');
});

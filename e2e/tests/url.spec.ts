// A link holds the setup: scenario, variant, parameters, fault plan, speed and the variant
// to compare with. Opening it restores the setup without running; changes update it.
import { expect, test } from '@playwright/test';

test('a link restores a setup, and the URL follows every change', async ({ page }) => {
  await page.goto('/?scenario=duplicate-job&variant=blind-del&p.workers=4&faults=working:first:stall:300&speed=0.5&compare=pg-advisory');
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue('duplicate-job');
  await expect(page.getByRole('radio', { name: 'blind-del (broken)', exact: true })).toBeChecked();
  await expect(page.getByRole('spinbutton', { name: 'Workers', exact: true })).toHaveValue('4');
  await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveValue('0.5');
  await expect(page.getByRole('combobox', { name: 'Compare with' })).toHaveValue('pg-advisory');
  const plan = page.getByRole('group', { name: 'Breakpoints' });
  await expect(plan.getByRole('combobox', { name: 'Breakpoint 1 checkpoint' })).toHaveValue('working');
  await expect(plan.getByRole('combobox', { name: 'Breakpoint 1 action' })).toHaveValue('stall');
  await expect(plan.getByRole('spinbutton', { name: 'Breakpoint 1 stall (ms)' })).toHaveValue('300');
  // Restored, not run.
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText('No run yet: choose a variant and press Run.');

  await page.getByRole('spinbutton', { name: 'Workers', exact: true }).fill('5');
  await expect(page).toHaveURL(/p\.workers=5/);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('2');
  await expect(page).toHaveURL(/speed=2(&|$)/);
  await page.reload();
  await expect(page.getByRole('spinbutton', { name: 'Workers', exact: true })).toHaveValue('5');
  await expect(page.getByRole('combobox', { name: 'Speed' })).toHaveValue('2');
});

test('a fault plan the server refuses is explained in its words', async ({ page }) => {
  await page.goto('/?scenario=duplicate-job&variant=setnx-then-expire&faults=between-setnx-and-expire:worker-9:kill');
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText("fault target 'worker-9' is not 'first' or a worker of this run");
});

test('a presenter chapter has a link of its own, which opens its run’s recording without running', async ({ page }) => {
  // Chapter 3: the first scenario's correct variant, whose recording ships with the page.
  await page.goto('/?presenter=1&chapter=3');
  const stage = page.getByRole('group', { name: 'On stage' });
  await expect(stage).toContainText(/chapter 3 of \d+: correct: token-lua/);
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^PASS/);
  await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('recorded run');
  await expect(page).toHaveURL(/[?&]chapter=3(&|$)/);
  // The next chapter's link follows the arrow key.
  await page.keyboard.press('ArrowRight');
  await expect(stage).toContainText(/chapter 4 of \d+: the scenario/);
  await expect(page).toHaveURL(/[?&]chapter=4(&|$)/);
});

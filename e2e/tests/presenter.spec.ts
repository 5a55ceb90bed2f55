// Presenting: shortcuts for everything, listed on ?; presenter mode in large type; a light
// and a dark theme; scenario and variant switched and runs started from the keyboard.
import { expect, test } from '@playwright/test';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

test('? lists the shortcuts; Esc closes the list', async ({ page }) => {
  await openPlayground(page);
  await page.locator('body').press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (const text of ['run the selected variant', 'next scenario', 'toggle broken ↔ correct variant', 'pause / resume worker n', 'step the playhead to the next event'])
    await expect(dialog).toContainText(text);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('presenter mode, themes, and a whole demo from the keyboard', async ({ page }) => {
  await openPlayground(page);
  const body = page.locator('body');
  const scenario = page.getByRole('combobox', { name: 'Scenario' });

  await body.press('p');
  await expect(page.getByRole('button', { name: 'Presenter mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(scenario).toBeHidden(); // the stage only
  const stage = page.getByRole('group', { name: 'On stage' });
  await expect(stage).toBeVisible();
  const size = await page.getByRole('heading', { name: 'Verdict' }).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(size).toBeGreaterThanOrEqual(20);

  // Light theme for a bright room, and back.
  const background = () => page.locator('html').evaluate((el) => getComputedStyle(el).backgroundColor);
  const dark = await background();
  await body.press('t');
  await expect(page.getByRole('button', { name: 'Light theme' })).toHaveAttribute('aria-pressed', 'true');
  expect(await background()).not.toBe(dark);
  await body.press('t');
  expect(await background()).toBe(dark);

  // Next scenario, then back; toggle the variant; run it.
  const before = (await stage.textContent())!;
  await body.press('n');
  await expect(stage).not.toHaveText(before);
  await body.press('Shift+N');
  await expect(stage).toHaveText(before);
  await body.press('v');
  await expect(stage).not.toHaveText(before);
  await body.press('v');
  await expect(stage).toHaveText(before);
  await body.press('r');
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });

  await body.press('p');
  await expect(scenario).toBeVisible();
});

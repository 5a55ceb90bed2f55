// The timeline is one Tab stop however many marks it draws: Tab enters it on a mark, the
// arrow keys move between marks (each named), and Tab leaves it.
import { expect, test, type Page } from '@playwright/test';
import { timelineOf, verdictStatus } from './layout.js';
import { choose, openPlayground, RUN_TIMEOUT } from './racelab.js';

/** The focused element's role and accessible name, and whether it is a mark in the timeline. */
async function focused(page: Page): Promise<{ name: string; inMarks: boolean; role: string | null }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const marks = document.querySelector('[aria-label^="Marks of the runs"]');
    return { name: el.getAttribute('aria-label') ?? el.textContent ?? '', inMarks: !!marks && marks !== el && marks.contains(el), role: el.getAttribute('role') };
  });
}

/** How many Tab stops lie inside the timeline's marks. */
async function tabStops(page: Page): Promise<number> {
  return timelineOf(page)
    .getByRole('group', { name: /^Marks of the runs/ })
    .evaluate((body) => {
      const all = [body as HTMLElement, ...Array.from(body.querySelectorAll<HTMLElement>('*'))];
      return all.filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && !(el as HTMLButtonElement).disabled).length;
    });
}

test('a 50-request stampede is one Tab stop; arrows move between named marks', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'token-stampede', 'refresh-every-request (broken)');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
  const timeline = timelineOf(page);
  expect(await timeline.getByRole('img').count()).toBeGreaterThan(50);
  expect(await tabStops(page)).toBe(1);

  // Tab from the control just before the lanes (the Export menu) lands on a mark.
  await timeline.getByText('Export', { exact: true }).focus();
  await page.keyboard.press('Tab');
  const first = await focused(page);
  expect(first.inMarks).toBe(true);
  expect(first.role).toBe('img');
  expect(first.name).not.toBe('');
  await expect(page.getByRole('tooltip')).toBeVisible();

  // → goes to another mark (later in the same lane), ↓ to the next lane's.
  await page.keyboard.press('ArrowRight');
  const second = await focused(page);
  expect(second.inMarks).toBe(true);
  expect(second.name).not.toBe(first.name);
  await page.keyboard.press('ArrowDown');
  const third = await focused(page);
  expect(third.inMarks).toBe(true);
  expect(third.name).not.toBe(second.name);

  // Tab leaves the timeline; Shift+Tab comes back to the mark last visited.
  await page.keyboard.press('Tab');
  expect((await focused(page)).inMarks).toBe(false);
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toEqual(third);
  // And Shift+Tab from a mark leaves backwards.
  await page.keyboard.press('Shift+Tab');
  expect((await focused(page)).inMarks).toBe(false);
  expect(await tabStops(page)).toBe(1);
});

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
    return {
      name: el.getAttribute('aria-label') ?? el.textContent ?? '',
      inMarks: !!marks && marks !== el && marks.contains(el),
      role: el.getAttribute('role'),
    };
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
  const firstMark = await page.evaluateHandle(() => document.activeElement!);

  // → goes to another mark (later in the same lane), ↓ to the next lane's. Marks are told
  // apart as elements: two calls that start in the same millisecond have the same name.
  await page.keyboard.press('ArrowRight');
  const second = await focused(page);
  expect(second.inMarks).toBe(true);
  expect(
    await firstMark.evaluate((el) => el !== document.activeElement && el.closest('.tl-row') === document.activeElement!.closest('.tl-row')),
  ).toBe(true);
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

test('while a run is live, the worker controls are one Tab stop before the marks; pause from the keyboard alone', async ({ page }) => {
  // A run that stays live far longer than the keys take: 10 s of work at a quarter speed.
  await openPlayground(page, '/?scenario=duplicate-job&variant=no-lock&p.workMs=10000&speed=0.25');
  await page.locator('body').press('r');
  const timeline = timelineOf(page);
  const lane = (w: string) => timeline.getByRole('group', { name: w, exact: true });
  for (const w of ['worker-1', 'worker-2', 'worker-3']) await expect(lane(w).getByRole('toolbar', { name: `${w} process` })).toBeVisible();
  await expect(timeline.getByRole('img', { name: /^worker-3 / }).first()).toBeAttached();

  // From the control beside Run to the first mark: three lanes of pause and kill are one stop.
  await page.getByRole('button', { name: 'Cancel run' }).focus();
  const stops: { name: string; role: string | null; inMarks: boolean }[] = [];
  while (stops.length < 40) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    stops.push(f);
    if (f.inMarks && f.role === 'img') break;
  }
  expect(stops.at(-1)!.role).toBe('img');
  const controls = stops.filter((s) => /^(Pause|Resume|Kill) worker-\d+$/.test(s.name));
  expect(controls.map((s) => s.name)).toEqual(['Pause worker-1']);
  expect(stops.at(-2)!.name).toBe('Pause worker-1');

  // Shift+Tab from the mark comes back to the controls; ↓ goes to the next lane's, → to kill.
  await page.keyboard.press('Shift+Tab');
  expect((await focused(page)).name).toBe('Pause worker-1');
  await page.keyboard.press('ArrowDown');
  expect((await focused(page)).name).toBe('Pause worker-2');
  await page.keyboard.press('ArrowRight');
  expect((await focused(page)).name).toBe('Kill worker-2');
  await page.keyboard.press('Home');
  expect((await focused(page)).name).toBe('Pause worker-2');

  // Enter pauses worker-2's process; the same button, now Resume, keeps the focus.
  await page.keyboard.press('Enter');
  await expect(timeline.getByRole('img', { name: /^worker-2 process stalled from \d+ ms to now$/ })).toBeVisible();
  await expect(lane('worker-2').getByRole('button', { name: 'Resume worker-2' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(timeline.getByRole('img', { name: /^worker-2 process stalled from \d+ ms to \d+ ms$/ })).toBeVisible();
  await expect(lane('worker-2').getByRole('button', { name: 'Pause worker-2' })).toBeFocused();

  // Killing a worker takes its controls away; the focus stays with another lane's.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  expect((await focused(page)).name).toBe('Kill worker-3');
  await page.keyboard.press('Enter');
  await expect(lane('worker-3')).toContainText('killed by SIGKILL');
  await expect(lane('worker-3').getByRole('toolbar')).toHaveCount(0);
  await expect.poll(async () => (await focused(page)).name).toMatch(/^(Pause|Kill) worker-[12]$/);

  // Tab goes on to the marks, and Tab again leaves the timeline.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ inMarks: true, role: 'img' });
  await page.keyboard.press('Tab');
  expect((await focused(page)).inMarks).toBe(false);

  await page.getByRole('button', { name: 'Cancel run' }).click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: RUN_TIMEOUT });
});

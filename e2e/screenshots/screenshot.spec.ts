// Refreshes the README's pictures: docs/timeline.png (the page after a blind-del run) and
// docs/presenter.png (presenter mode, broken and correct side by side).
// Not part of the test suite: npm run screenshot -w e2e
import { expect, test, type Page } from '@playwright/test';
import { choose, openPlayground, runAndWait, RUN_TIMEOUT } from '../tests/racelab.js';

async function calm(page: Page) {
  // Pressing Run scrolled the page to the button: show the top, with no focus ring or hover.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.mouse.move(1, 1);
}

test('docs/timeline.png: a blind-del run', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.emulateMedia({ reducedMotion: 'reduce' }); // marks appear at once: no entrance to wait for
  await openPlayground(page);
  await choose(page, 'duplicate-job', 'blind-del (broken)');
  await runAndWait(page, 'blind-del (broken)');
  await expect(page.getByRole('region', { name: 'Timeline' }).getByRole('img', { name: /^worker-1 zombie on / })).toBeVisible();
  await calm(page);
  // The page down to the end of the timeline.
  const timeline = (await page.getByRole('region', { name: 'Timeline' }).boundingBox())!;
  await page.screenshot({
    path: '../docs/timeline.png',
    fullPage: true,
    clip: { x: 0, y: 0, width: 1600, height: Math.ceil(timeline.y + timeline.height + 16) },
  });
});

test('docs/presenter.png: presenter mode, lease-only above fenced', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/?scenario=fencing&variant=fenced&compare=lease-only&presenter=1');
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  await page.getByRole('group', { name: 'On stage' }).getByRole('button', { name: 'Run both side by side' }).click();
  await expect(page.getByRole('region', { name: 'Verdict of fencing · lease-only (broken)' }).getByRole('status')).toHaveText(/^FAIL/, {
    timeout: RUN_TIMEOUT,
  });
  await expect(page.getByRole('region', { name: 'Verdict of fencing · fenced (correct)' }).getByRole('status')).toHaveText(/^PASS/, {
    timeout: RUN_TIMEOUT,
  });
  await calm(page);
  // The stage down to the end of the timeline: both verdicts and both runs on one axis.
  const timeline = (await page.getByRole('region', { name: 'Timeline' }).boundingBox())!;
  await page.screenshot({
    path: '../docs/presenter.png',
    fullPage: true,
    clip: { x: 0, y: 0, width: 1920, height: Math.ceil(timeline.y + timeline.height + 16) },
  });
});

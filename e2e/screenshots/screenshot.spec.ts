// Refreshes docs/timeline.png, the README's picture: the page after a blind-del run.
// Not part of the test suite: npm run screenshot -w e2e
import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait } from '../tests/racelab.js';

test('docs/timeline.png: a blind-del run', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.emulateMedia({ reducedMotion: 'reduce' }); // marks appear at once: no entrance to wait for
  await openPlayground(page);
  await choose(page, 'duplicate-job', 'blind-del (broken)');
  await runAndWait(page, 'blind-del (broken)');
  await expect(page.getByRole('region', { name: 'Timeline' }).getByRole('img', { name: /^worker-1 zombie on / })).toBeVisible();
  // Pressing Run scrolled the page to the button: show the top, with no focus ring or hover.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.mouse.move(1, 1);
  await page.screenshot({ path: '../docs/timeline.png' });
});

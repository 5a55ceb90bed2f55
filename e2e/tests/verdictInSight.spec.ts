// Outside presenter mode on a wide screen, the verdict sits beside the timeline: after a run
// it is in sight with Run and the lanes, no scrolling needed, and neither it nor the
// timeline moves while the run plays and when its verdict arrives. On a laptop's screen the
// timeline keeps the full width (its truth lanes in sight) and the verdict goes under it.
import { expect, test } from '@playwright/test';
import { boxOf, expectInsideViewport, expectNoWiderThanViewport, timelineOf, verdictStatus } from './layout.js';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

for (const viewport of [
  { width: 1600, height: 900 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the verdict is beside the timeline, in sight after a run, and nothing moves', async ({ page }, testInfo) => {
      // fencing: a run of about three seconds, long enough to measure it in progress.
      await openPlayground(page, '/?scenario=fencing');
      const timeline = timelineOf(page);
      const verdict = page.getByRole('region', { name: 'Verdict' });
      const run = page.getByRole('button', { name: 'Run', exact: true });
      const before = { timeline: await boxOf(timeline), verdict: await boxOf(verdict) };
      // Beside: to the right of the timeline, on the same rows of the screen.
      expect(before.verdict.x).toBeGreaterThanOrEqual(before.timeline.x + before.timeline.width);
      expect(before.verdict.y).toBeLessThan(before.timeline.y + before.timeline.height);
      expect(before.timeline.y).toBeLessThan(before.verdict.y + before.verdict.height);

      await run.click();
      await expect(verdictStatus(page)).toHaveText('Running…');
      await expect(timeline.getByRole('group', { name: 'worker-2', exact: true })).toBeVisible();
      const during = { timeline: await boxOf(timeline), verdict: await boxOf(verdict) };
      await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
      const numbers = verdict.getByRole('list', { name: 'Numbers' });
      await expect(numbers).toBeVisible();
      const after = { timeline: await boxOf(timeline), verdict: await boxOf(verdict) };
      expect(during).toEqual(before);
      expect(after).toEqual(before);

      // In sight without scrolling: Run, the verdict's box, its headline and its first number.
      await expectInsideViewport(page, run);
      await expectInsideViewport(page, verdict);
      await expectInsideViewport(page, verdictStatus(page));
      await expectInsideViewport(page, numbers.getByRole('listitem').first());
      await expectInsideViewport(page, timeline);
      await expectNoWiderThanViewport(page);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      const path = testInfo.outputPath(`verdict-beside-${viewport.width}.png`);
      await page.screenshot({ path });
      await testInfo.attach(`verdict-beside-${viewport.width}`, { path, contentType: 'image/png' });
    });
  });
}

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the timeline keeps the width and its truth lanes in sight; the verdict goes under it', async ({ page }) => {
    await openPlayground(page, '/?scenario=fencing');
    const timeline = timelineOf(page);
    const verdict = page.getByRole('region', { name: 'Verdict' });
    const before = await boxOf(timeline);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
    expect(await boxOf(timeline)).toEqual(before);
    // Under, not beside: the lanes get the stage's whole width.
    expect((await boxOf(verdict)).y).toBeGreaterThanOrEqual(before.y + before.height);
    expect(before.width).toBeGreaterThan(800);
    await expectInsideViewport(page, timeline.getByText('PostgreSQL', { exact: true }));
    await expectNoWiderThanViewport(page);
  });
});

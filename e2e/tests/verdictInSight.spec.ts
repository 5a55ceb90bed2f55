// Outside presenter mode on a wide screen, the verdict sits beside the timeline: after a run
// it is in sight with Run and the lanes, no scrolling needed, and neither it nor the
// timeline moves while the run plays and when its verdict arrives. On a laptop's screen the
// timeline keeps the full width (its truth lanes in sight) and the verdict goes under it,
// its headline still above the fold with the lanes; the legend lists only what the run drew.
import { expect, test } from '@playwright/test';
import { boxOf, expectInsideViewport, expectLanesFit, expectNoWiderThanViewport, timelineOf, verdictStatus } from './layout.js';
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

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('after Run the lanes and the verdict headline are in sight; the verdict goes under the full-width timeline', async ({
      page,
    }, testInfo) => {
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
      // Every lane, the truth lanes too, and the verdict's headline: no scrolling needed.
      expect(await expectLanesFit(page)).toBeGreaterThanOrEqual(5);
      await expectInsideViewport(page, timeline.getByText('PostgreSQL', { exact: true }));
      await expectInsideViewport(page, verdictStatus(page));
      await expectInsideViewport(page, page.getByRole('button', { name: 'Run', exact: true }));
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await expectNoWiderThanViewport(page);

      // The legend lists the shapes this run drew, none dimmed: a lease, its zombie, a stall, an
      // accepted write; not the call answers of a token refresh.
      const legend = timeline.getByRole('list', { name: 'Legend' });
      await expect(legend.getByRole('listitem').filter({ hasText: 'zombie: lease gone, worker still acting' })).toBeVisible();
      await expect(legend.getByRole('listitem').filter({ hasText: 'process stalled' })).toBeVisible();
      await expect(legend.getByRole('listitem').filter({ hasText: 'write accepted' })).toBeVisible();
      await expect(legend.getByRole('listitem').filter({ hasText: 'call answered ok' })).toHaveCount(0);
      await expect(legend.locator('[aria-disabled="true"]')).toHaveCount(0);
      const path = testInfo.outputPath(`verdict-under-${viewport.width}.png`);
      await page.screenshot({ path });
      await testInfo.attach(`verdict-under-${viewport.width}`, { path, contentType: 'image/png' });
    });

    test('duplicate-job at load: after Run its lanes and the verdict headline are in sight', async ({ page }) => {
      await openPlayground(page);
      await page.locator('body').press('r');
      await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
      const timeline = timelineOf(page);
      for (const worker of ['worker-1', 'worker-2', 'worker-3'])
        await expect(timeline.getByRole('group', { name: worker, exact: true })).toBeInViewport();
      // The lanes' own box (they scroll inside it where there are more than fit) and the headline.
      await expectInsideViewport(page, timeline.getByRole('group', { name: /^Marks of the runs/ }).locator('..'));
      await expectInsideViewport(page, verdictStatus(page));
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });
  });
}

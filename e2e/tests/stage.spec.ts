// Presenter mode on a projector's screen sizes: the whole stage fits with no page scroll,
// the timeline is the largest thing on it and stays put when the verdict arrives, its text
// is large, what a talk does not need is hidden, and chapters step with the arrow keys.
// Each scenario's end state is saved as a screenshot (attached to the test's results).
import { expect, test, type Page } from '@playwright/test';
import type { ScenarioManifest } from '@racelab/shared';
import { boxOf, documentSize, expectInsideViewport, textsSmallerThan, timelineOf, verdictStatus } from './layout.js';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

async function present(page: Page, path = '/'): Promise<void> {
  await openPlayground(page, path);
  await page.locator('body').press('p');
  await expect(page.getByRole('group', { name: 'On stage' })).toBeVisible();
}

/** No page scroll either way, the timeline and Run in sight, the timeline ≥ 55% of the height. */
async function expectFitted(page: Page): Promise<void> {
  const size = await documentSize(page);
  expect(size.height).toBeLessThanOrEqual(size.vh);
  expect(size.width).toBeLessThanOrEqual(size.vw);
  const timeline = await expectInsideViewport(page, timelineOf(page));
  expect(timeline.height).toBeGreaterThanOrEqual(0.55 * size.vh);
  await expectInsideViewport(page, page.getByRole('group', { name: 'On stage' }).getByRole('button', { name: 'Run', exact: true }));
  await expectInsideViewport(page, page.getByRole('region', { name: 'Verdict' }));
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`presenter mode at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('fits the screen, nothing moves when the verdict arrives, and timeline text is 18 px or more', async ({ page }) => {
      // fencing: a run of about three seconds, long enough to measure it in progress.
      await present(page, '/?scenario=fencing');
      await expectFitted(page);
      // Code, exports and parameters are not on stage.
      await expect(page.getByRole('region', { name: 'Code' })).toHaveCount(0);
      await expect(page.getByRole('toolbar', { name: 'Export' })).toHaveCount(0);
      await expect(page.getByText('Export', { exact: true })).toHaveCount(0);
      await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveCount(0);
      const timeline = timelineOf(page);
      const verdict = page.getByRole('region', { name: 'Verdict' });
      const before = { timeline: await boxOf(timeline), verdict: await boxOf(verdict) };

      await page.locator('body').press('r');
      await expect(verdictStatus(page)).toHaveText('Running…');
      await expect(timeline.getByRole('group', { name: 'worker-2', exact: true })).toBeVisible();
      const during = { timeline: await boxOf(timeline), verdict: await boxOf(verdict) };
      await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
      await expect(verdict.getByRole('list', { name: 'Numbers' })).toBeVisible();
      const after = { timeline: await boxOf(timeline), verdict: await boxOf(verdict) };
      expect(during).toEqual(before);
      expect(after).toEqual(before);
      await expectFitted(page);
      // Readable from the back row (presenter.spec.ts holds every shipped recording to it too).
      expect(await textsSmallerThan(timeline, 18)).toEqual([]);
    });
  });
}

test.describe('presenter mode chapters', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('→ steps scenario → broken run → correct run → next scenario; ← steps back', async ({ page }) => {
    await present(page);
    const stage = page.getByRole('group', { name: 'On stage' });
    await expect(stage).toContainText('Duplicate job');
    await expect(stage).toContainText(/chapter 1 of \d+: the scenario/);
    await page.keyboard.press('ArrowRight');
    await expect(stage).toContainText(/chapter 2 of \d+: broken: no-lock/);
    await expect(verdictStatus(page)).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
    await page.keyboard.press('ArrowRight');
    await expect(stage).toContainText(/chapter 3 of \d+: correct: token-lua/);
    await expect(verdictStatus(page)).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
    await page.keyboard.press('ArrowRight');
    await expect(stage).toContainText(/chapter 4 of \d+: the scenario/);
    await expect(stage).toContainText('Token refresh stampede');
    await expect(verdictStatus(page)).toHaveText(/^No run yet/);
    await page.keyboard.press('ArrowLeft');
    await expect(stage).toContainText(/chapter 3 of \d+: correct: token-lua/);
    await expect(verdictStatus(page)).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
    await expectFitted(page);
  });

  test('R with an invalid parameter says why the run did not start', async ({ page }) => {
    await present(page, '/?scenario=duplicate-job&p.workers=0');
    await page.locator('body').press('r');
    const refusal = page.getByRole('group', { name: 'On stage' }).getByRole('alert');
    await expect(refusal).toHaveText(/The run did not start: parameter 'workers' must be an integer from 1 to \d+, got 0/);
    await expectInsideViewport(page, refusal);
  });
});

test.describe('every scenario on stage', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  // Each scenario opens on its first variant, a broken one: on stage it must show FAIL, as
  // the browser catalogue (catalog.spec.ts) shows each correct one PASS.
  test('each scenario’s end state, saved as a screenshot, its first variant failing', async ({ page, request }, testInfo) => {
    const catalog = (await (await request.get('/api/catalog')).json()) as ScenarioManifest[];
    test.setTimeout(60_000 + catalog.length * 45_000);
    expect(catalog.length).toBeGreaterThan(5);
    await present(page);
    for (const { id, title, variants } of catalog) {
      expect(variants[0]!.correct, `${id}'s first variant is a broken one`).toBe(false);
      await page.goto(`/?scenario=${id}&presenter=1`);
      await expect(page.getByText('connected', { exact: true })).toBeVisible();
      await expect(page.getByRole('group', { name: 'On stage' })).toContainText(title);
      await page.locator('body').press('r');
      await expect(verdictStatus(page), id).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
      await expectFitted(page);
      const path = testInfo.outputPath(`presenter-${id}.png`);
      await page.screenshot({ path });
      await testInfo.attach(`presenter-${id}`, { path, contentType: 'image/png' });
    }
  });
});

// Compare: the broken and the correct variant started together with the same parameters,
// speed and fault plan, on one time axis, broken above correct, each with its verdict.
import { expect, test } from '@playwright/test';
import { documentSize, expectLanesFit, expectNothingScrollsIn, expectVerdictsFit, timelineOf } from './layout.js';
import { choose, openPlayground, RUN_TIMEOUT } from './racelab.js';

test('broken and correct side by side on one time axis', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'fencing', 'fenced (correct)');
  await page.getByRole('combobox', { name: 'Compare with' }).selectOption('lease-only');
  await page.getByRole('button', { name: 'Run both side by side' }).click();

  const broken = page.getByRole('region', { name: 'Verdict of fencing · lease-only (broken)' });
  const correct = page.getByRole('region', { name: 'Verdict of fencing · fenced (correct)' });
  await expect(broken.getByRole('status')).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
  await expect(correct.getByRole('status')).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
  await expect(broken).toContainText('Stale writes accepted: 1 — should be 0');
  await expect(correct).toContainText('Stale writes accepted: 0 — should be 0');
  await expect(correct.getByRole('list', { name: 'What happened' })).toContainText('the row refused it');

  const timeline = page.getByRole('region', { name: 'Timeline' });
  const top = timeline.getByRole('group', { name: 'Run of fencing · lease-only (broken)' });
  const bottom = timeline.getByRole('group', { name: 'Run of fencing · fenced (correct)' });
  await expect(top).toContainText('FAIL');
  await expect(bottom).toContainText('PASS');
  expect((await top.boundingBox())!.y).toBeLessThan((await bottom.boundingBox())!.y);
  for (const run of [top, bottom]) {
    await expect(run.getByRole('group', { name: 'worker-1', exact: true })).toBeVisible();
    await expect(run.getByRole('group', { name: 'PostgreSQL document' })).toBeVisible();
  }
  // One time axis for both.
  await expect(timeline.getByRole('img', { name: /^Time axis from/ })).toHaveCount(1);

  // C does the same from the keyboard.
  await page.locator('body').press('c');
  await expect(broken.getByRole('status')).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
  await expect(correct.getByRole('status')).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`a compare in presenter mode at ${viewport.width}×${viewport.height}: both runs fit, every lane of the second run in sight, nothing scrolls`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPlayground(page, '/?scenario=fencing&variant=fenced&compare=lease-only&presenter=1');
    await page.locator('body').press('c');
    for (const name of ['Verdict of fencing · lease-only (broken)', 'Verdict of fencing · fenced (correct)'])
      await expect(page.getByRole('region', { name }).getByRole('status')).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
    const second = page.getByRole('region', { name: 'Timeline' }).getByRole('group', { name: 'Run of fencing · fenced (correct)' });
    await expect(second.getByRole('group', { name: 'PostgreSQL document' })).toBeVisible();
    // Two runs of two workers, holders and what the stores held: 11 lanes.
    expect(await expectLanesFit(page)).toBeGreaterThanOrEqual(11);
    await expectNothingScrollsIn(timelineOf(page), 'the timeline');
    await expectVerdictsFit(page);
    const size = await documentSize(page);
    expect(size.height).toBeLessThanOrEqual(size.vh);
  });
}

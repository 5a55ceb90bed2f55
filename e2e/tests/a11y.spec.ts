// Accessibility by axe (WCAG 2 A and AA rules) on what a person sees: the first screen, a
// live run with its worker controls, the page after a run, presenter mode, a replayed
// recording and the lock libraries' scorecard, in the dark, light and high-contrast themes.
// Any serious or critical violation fails, listed by rule, impact and element; each check
// reports (soft), so one failing run lists all that is wrong.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { verdictStatus } from './layout.js';
import { choose, openPlayground, runAndWait, RUN_TIMEOUT } from './racelab.js';
import { startStaticServer, type StaticServer } from './staticServer.js';

// Shapes fade in over 0.3 s; axe measures contrast as painted, so it looks at them at rest.
test.use({ reducedMotion: 'reduce' });

/**
 * Runs axe on the page as it is in each theme, switched with its key (T: light, H: high
 * contrast, from light; H again: back to dark), and ends in the dark theme it started in.
 */
async function expectNoSeriousViolationsInEveryTheme(page: Page, what: string): Promise<void> {
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expectNoSeriousViolations(page, `${what}, dark theme`);
  await page.locator('body').press('t');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expectNoSeriousViolations(page, `${what}, light theme`);
  await page.locator('body').press('h');
  await expect(html).toHaveAttribute('data-theme', 'contrast');
  await expectNoSeriousViolations(page, `${what}, contrast theme`);
  await page.locator('body').press('h');
  await expect(html).toHaveAttribute('data-theme', 'dark');
}

/** Runs axe on the page as it is and fails on every serious or critical violation, listed. */
async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const lines = serious.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
  );
  expect.soft(lines, `${what}: serious or critical accessibility violations`).toEqual([]);
}

// Each state is reached once and checked in the three themes: a theme changes colours, not
// what is on the page.
test('the main page at first load and after a run', async ({ page }) => {
  await openPlayground(page);
  await expectNoSeriousViolationsInEveryTheme(page, 'first load');
  await choose(page, 'duplicate-job', 'blind-del (broken)');
  await runAndWait(page, 'blind-del (broken)');
  await expectNoSeriousViolationsInEveryTheme(page, 'after a run');
});

test('a live run with the worker controls', async ({ page }) => {
  // A run that stays live for a while: 10 s of work at a quarter speed.
  await openPlayground(page, '/?scenario=duplicate-job&variant=no-lock&p.workMs=10000&speed=0.25');
  await page.locator('body').press('r');
  const lanes = page.getByRole('region', { name: 'Timeline' }).getByRole('toolbar', { name: /^worker-\d+ process$/ });
  await expect(lanes).toHaveCount(3);
  await lanes.first().getByRole('button', { name: 'Pause worker-1' }).click();
  await expect(lanes.first().getByRole('button', { name: 'Resume worker-1' })).toBeVisible();
  await expectNoSeriousViolationsInEveryTheme(page, 'a live run');
  // Still live after the three checks: they looked at the run, not at its end.
  await expect(page.getByRole('button', { name: 'Cancel run' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel run' }).click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: RUN_TIMEOUT });
});

test('presenter mode before and after a run', async ({ page }) => {
  await openPlayground(page, '/?scenario=fencing');
  await page.locator('body').press('p');
  await expect(page.getByRole('group', { name: 'On stage' })).toBeVisible();
  await expectNoSeriousViolationsInEveryTheme(page, 'presenter mode');
  await page.locator('body').press('r');
  await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL)/);
  await expectNoSeriousViolationsInEveryTheme(page, 'presenter mode after a run');
});

test.describe('with no server', () => {
  let server: StaticServer;
  test.beforeAll(async () => {
    server = await startStaticServer();
  });
  test.afterAll(async () => {
    await server.close();
  });

  test('a replayed recording', async ({ page }) => {
    await page.goto(`${server.url}/?replay=fencing-lease-only.json`);
    await expect(verdictStatus(page)).toHaveText(/^FAIL/);
    await expectNoSeriousViolationsInEveryTheme(page, 'replay');
  });

  test('the lock libraries’ scorecard', async ({ page }) => {
    await page.goto(`${server.url}/?scorecard=1`);
    await expect(
      page
        .getByRole('table', { name: /^Lock libraries/ })
        .getByRole('button', { name: /^Replay / })
        .first(),
    ).toBeVisible();
    await expectNoSeriousViolationsInEveryTheme(page, 'the scorecard');
  });
});

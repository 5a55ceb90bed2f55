// The page is usable from the keyboard: Tab reaches every control, and a run can be
// started and read without a mouse.
import { expect, test } from '@playwright/test';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

async function tabUntil(page: import('@playwright/test').Page, match: (label: string) => boolean, max = 40) {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const id = el.getAttribute('id');
      const byFor = id ? document.querySelector(`label[for="${id}"]`)?.textContent : null;
      return `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? byFor ?? el.textContent ?? ''}`.trim();
    });
    seen.push(label);
    if (match(label)) return seen;
  }
  throw new Error(`not reached by Tab; focus went through: ${seen.join(' | ')}`);
}

test('Tab reaches scenario, variant, parameters and Run; Enter runs', async ({ page }) => {
  // A scenario with a Workers parameter, whatever the catalog lists first.
  await openPlayground(page, '/?scenario=duplicate-job');
  // The Run button shows its key: "Run R".
  const seen = await tabUntil(page, (l) => l === 'button:Run R');
  expect(seen.some((l) => l.startsWith('select:Scenario'))).toBe(true);
  expect(seen.some((l) => /^input:.+ \((broken|correct)\)$/.test(l))).toBe(true);
  expect(seen.some((l) => l === 'input:Workers')).toBe(true);

  await page.keyboard.press('Enter');
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });
  await expect(page.getByRole('region', { name: 'Code' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Explanation' })).toBeVisible();

  // Marks in the timeline take focus and show their details.
  const seenMarks = await tabUntil(page, (l) => l.startsWith('div:worker-1 '), 200);
  expect(seenMarks.length).toBeGreaterThan(0);
  await expect(page.getByRole('tooltip')).toBeVisible();
});

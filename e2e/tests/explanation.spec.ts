// A scenario's explanation reads as its text is written: fence-check lists its four
// orderings and sets out what each check does with them in a table, read by role. Below it,
// every scenario links to where its mistake was seen in the wild, as the catalog lists them.
import { expect, test, type Page } from '@playwright/test';
import type { ScenarioManifest } from '@racelab/shared';
import { openPlayground } from './racelab.js';

test('an explanation shows its list and its table', async ({ page }) => {
  await openPlayground(page, '/?scenario=fence-check');
  const explanation = page.getByRole('region', { name: 'Explanation' });
  await expect(explanation.getByRole('list').first().getByRole('listitem')).toHaveCount(4);
  await expect(explanation.getByRole('listitem').first()).toContainText("Stale write after the new holder's");
  const table = explanation.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['check', '1 after', '2 before', '3 between', '4 late registration']);
  const guard = table.getByRole('row', { name: /^database guard/ });
  await expect(guard.getByRole('cell')).toHaveText(['refused', 'taken, then replaced', 'refused', 'refused']);
  // No mark of the text's own syntax is left on the page.
  await expect(explanation).not.toContainText('|---');
  await expect(explanation).not.toContainText('*let through*');
});

/** The explanation's "Seen in the wild" region. */
const seenInTheWild = (page: Page) => page.getByRole('region', { name: 'Explanation' }).getByRole('region', { name: 'Seen in the wild' });

test("every scenario's explanation links its sources, each opening in a new tab, reachable by Tab", async ({ page }) => {
  const catalog = (await (await page.request.get('/api/catalog')).json()) as ScenarioManifest[];
  await openPlayground(page, '/');
  for (const scenario of catalog) {
    await page.getByRole('combobox', { name: 'Scenario' }).selectOption(scenario.id);
    await expect(page.getByRole('region', { name: 'Explanation' })).toContainText(scenario.title);
    const sources = scenario.seenInTheWild ?? [];
    expect(sources.length, scenario.id).toBeGreaterThanOrEqual(2);
    const links = seenInTheWild(page).getByRole('link');
    await expect(links).toHaveCount(sources.length);
    for (const [i, source] of sources.entries()) {
      const link = links.nth(i);
      await expect(link).toHaveAccessibleName(source.title);
      await expect(link).toHaveAttribute('href', source.url);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /\bnoopener\b/);
      await expect(seenInTheWild(page).getByRole('listitem').nth(i)).toContainText(source.summary);
    }
  }
  // From one link, Tab goes to the next.
  const links = seenInTheWild(page).getByRole('link');
  await links.first().focus();
  await page.keyboard.press('Tab');
  await expect(links.nth(1)).toBeFocused();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1920, height: 1080 },
]) {
  test(`the sources read within a ${viewport.width} px wide screen`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await openPlayground(page, '/?scenario=fencing');
    const items = seenInTheWild(page).getByRole('listitem');
    await expect(items.first()).toBeVisible();
    for (const item of await items.all()) {
      await item.scrollIntoViewIfNeeded();
      const box = (await item.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
  });
}

// Every variant of every scenario the server offers, run at its defaults from the page:
// broken ones must FAIL and correct ones PASS. A new scenario is covered with no new test.
import { expect, test } from '@playwright/test';
import type { ScenarioManifest } from '@racelab/shared';
import { choose, openPlayground, runAndWait, variantRadioName } from './racelab.js';

test('every variant of every scenario gets the verdict it is built to get', async ({ page, request }) => {
  const response = await request.get('/api/catalog');
  expect(response.ok()).toBe(true);
  const catalog = (await response.json()) as ScenarioManifest[];
  expect(catalog.length).toBeGreaterThan(0);
  test.setTimeout(60_000 + catalog.reduce((n, s) => n + s.variants.length, 0) * 45_000);

  await openPlayground(page);
  for (const scenario of catalog) {
    for (const variant of scenario.variants) {
      await test.step(`${scenario.id} / ${variant.id}`, async () => {
        const name = variantRadioName(variant.id, variant.correct);
        await choose(page, scenario.id, name);
        const headline = await runAndWait(page, name);
        expect(headline, `${scenario.id} ${name}`).toMatch(variant.correct ? /^PASS/ : /^FAIL/);
        const lines = page.getByRole('region', { name: 'Verdict' }).getByRole('listitem');
        await expect(lines.first()).toContainText(/ — should (not )?be /);
      });
    }
  }
});

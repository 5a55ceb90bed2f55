// Every scenario the server offers, from the page: its first correct variant must show
// PASS at the defaults. A new scenario is covered with no new test. Each scenario's first
// variant, a broken one, is run on stage and must show FAIL (stage.spec.ts); every other
// variant's verdict is held without a browser, at the same defaults
// (server/src/scenarios/catalog.test.ts): what the page adds, drawing the verdict it is
// sent, is the same for all. Three pages share the list, as three visitors of one server
// would: each run's verdict is its own (the server keeps runs apart; http/crowd.test.ts
// checks that with a crowd at once), and the suite waits a third as long.
import { expect, test, type Browser } from '@playwright/test';
import type { ScenarioManifest } from '@racelab/shared';
import { choose, openPlayground, runAndWait, variantRadioName } from './racelab.js';

const PAGES = 3;

test('a correct variant of every scenario gets a PASS', async ({ browser, request, baseURL, viewport }) => {
  const response = await request.get('/api/catalog');
  expect(response.ok()).toBe(true);
  const catalog = (await response.json()) as ScenarioManifest[];
  expect(catalog.length).toBeGreaterThan(0);
  const runs = catalog.map((scenario) => {
    const variant = scenario.variants.find((v) => v.correct && !v.library && !v.unavailable);
    if (!variant) throw new Error(`${scenario.id} has no correct variant of its own`);
    return { scenario, variant };
  });
  test.setTimeout(60_000 + Math.ceil(runs.length / PAGES) * 45_000);

  const seen: string[] = [];
  const visitor = async (b: Browser) => {
    const context = await b.newContext({ baseURL, viewport });
    const page = await context.newPage();
    await openPlayground(page);
    for (let next = runs.shift(); next; next = runs.shift()) {
      const { scenario, variant } = next;
      await test.step(`${scenario.id} / ${variant.id}`, async () => {
        const name = variantRadioName(variant.id, variant.correct);
        await choose(page, scenario.id, name);
        const headline = await runAndWait(page, name);
        expect(headline, `${scenario.id} ${name}`).toMatch(/^PASS/);
        const lines = page.getByRole('region', { name: 'Verdict' }).getByRole('listitem');
        await expect(lines.first()).toContainText(/ — should (not )?be /);
        seen.push(`${scenario.id}/${variant.id}`);
      });
    }
    await context.close();
  };
  const total = runs.length;
  await Promise.all(Array.from({ length: PAGES }, () => visitor(browser)));
  expect(seen).toHaveLength(total);
});

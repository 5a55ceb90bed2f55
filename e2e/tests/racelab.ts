// Helpers shared by the specs: the page's controls, found by role and accessible name.
import { expect, type Page } from '@playwright/test';

/**
 * How long a run may take before a spec gives up on it: forked workers, real stores, and on a
 * busy 2-core machine redlock's five nodes took 34 s to a verdict once (6 s when it is quiet).
 */
export const RUN_TIMEOUT = 60_000;

export function variantRadioName(id: string, correct: boolean): string {
  return `${id} (${correct ? 'correct' : 'broken'})`;
}

/** Opens the page; `path` may carry a setup, e.g. '/?scenario=duplicate-job'. */
export async function openPlayground(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
}

export async function choose(page: Page, scenario: string, variantName: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption(scenario);
  const radio = page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio', { name: variantName, exact: true });
  await radio.check();
  await expect(radio).toBeChecked();
}

/** Presses Run and waits for this run's verdict headline (PASS or FAIL). */
export async function runAndWait(page: Page, variantName: string): Promise<string> {
  const run = page.getByRole('button', { name: 'Run', exact: true });
  await expect(run).toBeEnabled();
  await run.click();
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict).toContainText(variantName);
  const headline = verdict.getByRole('status');
  await expect(headline).toHaveText(/^(PASS|FAIL|ERROR)/, { timeout: RUN_TIMEOUT });
  return (await headline.textContent()) ?? '';
}

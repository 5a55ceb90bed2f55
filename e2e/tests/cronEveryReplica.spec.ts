// cron-every-replica from the page: a real croner schedule in every replica fires once per
// replica for the same slot, each replica's clock behind the last, and the verdict's numbers,
// read from PostgreSQL, say so: the reports sent (one row each) and the firings (one row per
// croner callback, marked as reported by a worker).
import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

test.describe('cron-every-replica', () => {
  test('croner fires on every replica: a report per replica without a guard, one with a unique row per slot', async ({ page }) => {
    await openPlayground(page);
    const verdict = page.getByRole('region', { name: 'Verdict' });
    const numbers = verdict.getByRole('list', { name: 'Numbers' });
    const timeline = page.getByRole('region', { name: 'Timeline' });

    await choose(page, 'cron-every-replica', 'every-replica (broken)');
    await runAndWait(page, 'every-replica (broken)');
    await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
    await expect(numbers).toContainText('Reports sent: 3 — should be 1');
    await expect(verdict).toContainText('croner fired (times): 3 (reported by a worker)');
    for (const replica of ['replica-1', 'replica-2', 'replica-3']) {
      await expect(timeline.getByRole('group', { name: replica, exact: true })).toBeVisible();
      await expect(timeline.getByRole('img', { name: new RegExp(`^${replica} job fired at \\d+ ms$`) })).toBeVisible();
    }

    // Four replicas: four firings, four reports.
    await page.getByRole('spinbutton', { name: 'Replicas', exact: true }).fill('4');
    await runAndWait(page, 'every-replica (broken)');
    await expect(numbers).toContainText('Reports sent: 4 — should be 1');
    await expect(verdict).toContainText('croner fired (times): 4 (reported by a worker)');

    // The unique row per slot: every replica still fires, one report is sent.
    await choose(page, 'cron-every-replica', 'unique-slot-row (correct)');
    await runAndWait(page, 'unique-slot-row (correct)');
    await expect(verdict.getByRole('status')).toHaveText(/^PASS/);
    await expect(numbers).toContainText('Reports sent: 1 — should be 1');
    await expect(verdict).toContainText('croner fired (times): 3 (reported by a worker)');
  });
});

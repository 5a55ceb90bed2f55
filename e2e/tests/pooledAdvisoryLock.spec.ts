// pooled-advisory-lock from the page: two workers take the same session-level advisory lock
// through a real PgBouncer in transaction mode and both get it, on the one backend the pooler
// lends them; inside the transaction (pg_advisory_xact_lock) only one holds it at a time. The
// numbers are PostgreSQL's: the rows of holds under way at once and the backends they ran on.
import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

test('session-lock behind PgBouncer is held by both workers at once on one backend; xact-lock by one at a time', async ({ page }) => {
  await openPlayground(page);
  const verdict = page.getByRole('region', { name: 'Verdict' });
  const timeline = page.getByRole('region', { name: 'Timeline' });

  await choose(page, 'pooled-advisory-lock', 'session-lock (broken)');
  await runAndWait(page, 'session-lock (broken)');
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict).toContainText('Max concurrent holders: 2 — should be at most 1');
  await expect(verdict).toContainText('Backends used: 1');
  // The pooler between each worker and PostgreSQL, named with its mechanism in each lane.
  for (const worker of ['worker-1', 'worker-2'])
    await expect(timeline.getByRole('img', { name: new RegExp(`^${worker} pooling .* by pgbouncer transaction pool`) })).toBeVisible();

  await choose(page, 'pooled-advisory-lock', 'xact-lock (correct)');
  await runAndWait(page, 'xact-lock (correct)');
  await expect(verdict.getByRole('status')).toHaveText(/^PASS/);
  await expect(verdict).toContainText('Max concurrent holders: 1 — should be at most 1');
  await expect(verdict).toContainText('Backends used: 1');
});

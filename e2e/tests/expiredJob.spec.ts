// expired-job from the page: a pg-boss job whose worker is stopped past its expiry is run again
// by another worker, and the card is charged twice; the numbers are the rows PostgreSQL holds
// (charges) and pg-boss's own job row (retry_count + 1), as the verdict and the truth lanes show.
import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

test('plain-insert charges the card on both runs of the expired job; complete-in-transaction charges once', async ({ page }) => {
  await openPlayground(page);
  const verdict = page.getByRole('region', { name: 'Verdict' });
  const timeline = page.getByRole('region', { name: 'Timeline' });

  await choose(page, 'expired-job', 'plain-insert (broken)');
  await runAndWait(page, 'plain-insert (broken)');
  await expect(verdict).toContainText('Charges: 2 — should be 1');
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  // worker-1 was stopped past the expiry; both runs of the job wrote their charge.
  await expect(timeline.getByRole('img', { name: /^worker-1 process stalled from [\d.]+ (ms|s) to [\d.]+ (ms|s)$/ })).toBeVisible();
  for (const worker of ['worker-1', 'worker-2']) {
    await expect(
      timeline.getByRole('img', { name: new RegExp(`^${worker} write to charges accepted with fence \\d at [\\d.]+ (ms|s)$`) }),
    ).toBeVisible();
  }
  await expect(timeline.getByRole('group', { name: 'PostgreSQL charges' })).toContainText('2 · worker-2 (attempt 2), worker-1 (attempt 1)');
  await expect(timeline.getByRole('group', { name: 'PostgreSQL job' })).toContainText('completed · started 2×');

  await choose(page, 'expired-job', 'complete-in-transaction (correct)');
  await runAndWait(page, 'complete-in-transaction (correct)');
  await expect(verdict).toContainText('Charges: 1 — should be 1');
  await expect(verdict.getByRole('status')).toHaveText(/^PASS/);
  await expect(timeline.getByRole('img', { name: /^worker-1 write to charges rejected with fence 1 at [\d.]+ (ms|s)$/ })).toBeVisible();
  await expect(timeline.getByRole('group', { name: 'PostgreSQL charges' })).toContainText('1 · worker-2 (attempt 2)');
  await expect(timeline.getByRole('group', { name: 'PostgreSQL job' })).toContainText('completed · started 2×');
});

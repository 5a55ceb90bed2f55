// stalled-job from the page: a real bullmq Worker is stopped mid-job past the job's lock, the
// stalled-job check of the other Worker hands the job on, and the card is charged twice. The
// numbers are PostgreSQL's rows of charges and bullmq's own count of the job's starts in Redis,
// as the verdict and the truth lanes show; with a charge keyed by the job id, once.
import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

test('plain-insert charges the card in both runs of the stalled job; unique-job-id charges once', async ({ page }) => {
  await openPlayground(page);
  const verdict = page.getByRole('region', { name: 'Verdict' });
  const timeline = page.getByRole('region', { name: 'Timeline' });

  await choose(page, 'stalled-job', 'plain-insert (broken)');
  await runAndWait(page, 'plain-insert (broken)');
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict).toContainText('Charges: 2 — should be 1');
  await expect(verdict).toContainText('Job started (times): 2');
  await expect(timeline.getByRole('img', { name: /^worker-1 process stalled from [\d.]+ (ms|s) to [\d.]+ (ms|s)$/ })).toBeVisible();
  await expect(timeline.getByRole('group', { name: 'PostgreSQL charges' })).toContainText(
    /2 · worker-\d \(attempt \d\), worker-\d \(attempt \d\)/,
  );
  await expect(timeline.getByRole('group', { name: 'Redis job' })).toContainText('started 2×');

  await choose(page, 'stalled-job', 'unique-job-id (correct)');
  await runAndWait(page, 'unique-job-id (correct)');
  await expect(verdict.getByRole('status')).toHaveText(/^PASS/);
  await expect(verdict).toContainText('Charges: 1 — should be 1');
  // bullmq still started the job twice: the constraint, not the queue, kept the second charge out.
  await expect(verdict).toContainText('Job started (times): 2');
  await expect(timeline.getByRole('group', { name: 'Redis job' })).toContainText('started 2×');
});

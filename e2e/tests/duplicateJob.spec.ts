import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

test.describe('duplicate-job', () => {
  test('no-lock sends an e-mail per container; token-lua sends one', async ({ page }) => {
    await openPlayground(page);
    const verdict = page.getByRole('region', { name: 'Verdict' });
    const timeline = page.getByRole('region', { name: 'Timeline' });

    await choose(page, 'duplicate-job', 'no-lock (broken)');
    await runAndWait(page, 'no-lock (broken)');
    await expect(verdict).toContainText('E-mails sent: 3 — should be 1');
    await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
    for (const worker of ['worker-1', 'worker-2', 'worker-3']) {
      await expect(timeline.getByRole('group', { name: worker, exact: true })).toBeVisible();
    }
    await expect(timeline.getByRole('img', { name: /^worker-1 write to email accepted at \d+ ms$/ })).toBeVisible();

    await choose(page, 'duplicate-job', 'token-lua (correct)');
    await runAndWait(page, 'token-lua (correct)');
    await expect(verdict).toContainText('E-mails sent: 1 — should be 1');
    await expect(verdict.getByRole('status')).toHaveText(/^PASS/);
    for (const worker of ['worker-1', 'worker-2', 'worker-3']) {
      await expect(timeline.getByRole('group', { name: worker, exact: true })).toBeVisible();
    }
  });

  test("token-delex, where the server's Redis has neither DELEX nor DELIFEQ, is listed with the reason and its run refused", async ({
    page,
    request,
  }) => {
    const catalog = (await (await request.get('/api/catalog')).json()) as {
      id: string;
      variants: { id: string; unavailable?: string }[];
    }[];
    const reason = catalog.find((m) => m.id === 'duplicate-job')?.variants.find((v) => v.id === 'token-delex')?.unavailable;
    test.skip(!reason, "the server's Redis has DELEX or DELIFEQ: token-delex runs there");
    await openPlayground(page);
    await choose(page, 'duplicate-job', 'token-delex (correct)');
    await expect(page.getByRole('note')).toHaveText(`Unavailable on this server: token-delex: ${reason}`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(`The run did not start: duplicate-job/token-delex is unavailable here: ${reason}`);
  });

  test('no-lock with 7 workers sends 7 e-mails', async ({ page }) => {
    await openPlayground(page);
    await choose(page, 'duplicate-job', 'no-lock (broken)');
    const workers = page.getByRole('spinbutton', { name: 'Workers', exact: true });
    await workers.fill('7');
    await runAndWait(page, 'no-lock (broken)');
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await expect(verdict).toContainText('E-mails sent: 7 — should be 1');
    await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
    await expect(page.getByRole('region', { name: 'Timeline' }).getByRole('group', { name: 'worker-7', exact: true })).toBeVisible();
  });

  test('an invalid parameter is explained inline and disables Run', async ({ page }) => {
    await openPlayground(page);
    await choose(page, 'duplicate-job', 'no-lock (broken)');
    const workers = page.getByRole('spinbutton', { name: 'Workers', exact: true });
    await workers.fill('0');
    await expect(page.getByText(/parameter 'workers' must be an integer from \d+ to \d+, got 0/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
    await expect(workers).toHaveAttribute('aria-invalid', 'true');
    // Switching variant resets the parameters to that variant's defaults.
    await choose(page, 'duplicate-job', 'token-lua (correct)');
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  });

  test('blind-del shows a zombie window and a deleted lock', async ({ page }) => {
    await openPlayground(page);
    await choose(page, 'duplicate-job', 'blind-del (broken)');
    await runAndWait(page, 'blind-del (broken)');
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const zombie = timeline.getByRole('img', { name: /^worker-1 zombie on / });
    await expect(zombie).toBeVisible();
    await zombie.focus(); // marks are focusable and explain themselves
    await expect(page.getByRole('tooltip')).toContainText('the worker still believed it held the lock');
    await expect(timeline.getByRole('img', { name: /^worker-1 deleted worker-2's lock / })).toBeVisible();
    await expect(timeline.getByRole('group', { name: /^Redis lock:/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Verdict' })).toContainText('E-mails sent: 3 — should be 1');
  });
});

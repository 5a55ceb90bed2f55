// Acting: live faults on the real worker processes (pause = SIGSTOP, resume = SIGCONT,
// kill = SIGKILL) from the lanes and from the keys; breakpoints at a variant's checkpoints;
// and the time scale that stretches a run and keeps its verdict.
import { expect, test } from '@playwright/test';
import { choose, openPlayground, runAndWait, RUN_TIMEOUT } from './racelab.js';

test('pause, resume and kill real worker processes during a run', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'duplicate-job', 'no-lock (broken)');
  await page.getByRole('spinbutton', { name: 'Work', exact: true }).fill('8000');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const lane = (w: string) => timeline.getByRole('group', { name: w, exact: true });

  // worker-3 from the keyboard (3 pauses it) and worker-2 from its lane are paused first: a
  // stopped process cannot finish its work, so however slow the machine, both are still
  // there to be resumed once worker-1 is killed.
  await expect(lane('worker-3').getByRole('button', { name: 'Pause worker-3' })).toBeVisible();
  await page.locator('body').press('3');
  await expect(lane('worker-3').getByRole('button', { name: 'Resume worker-3' })).toBeVisible();
  await lane('worker-2').getByRole('button', { name: 'Pause worker-2' }).click();
  await expect(timeline.getByRole('img', { name: /^worker-2 process stalled from \d+ ms to now$/ })).toBeVisible();

  await lane('worker-1').getByRole('button', { name: 'Kill worker-1' }).click();
  await expect(lane('worker-1')).toContainText('killed by SIGKILL');
  await expect(timeline.getByRole('img', { name: /^worker-1 killed by SIGKILL at \d+ ms$/ })).toBeVisible();

  await lane('worker-2').getByRole('button', { name: 'Resume worker-2' }).click();
  await expect(timeline.getByRole('img', { name: /^worker-2 process stalled from \d+ ms to \d+ ms$/ })).toBeVisible();
  // 3 again resumes worker-3.
  await page.locator('body').press('3');
  await expect(lane('worker-3').getByRole('button', { name: 'Pause worker-3' })).toBeVisible();

  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/, { timeout: RUN_TIMEOUT });
  // worker-1 died before it sent its e-mail; the paused ones sent theirs after resuming.
  await expect(verdict).toContainText('E-mails sent: 2 — should be 1');
  await expect(verdict.getByRole('list', { name: 'What happened' })).toContainText('worker-1 was killed (SIGKILL)');
  await expect(lane('worker-1').getByRole('button', { name: 'Kill worker-1' })).toHaveCount(0);
});

test('a breakpoint between two commands kills or stalls the worker that reaches it', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'duplicate-job', 'setnx-no-expiry (broken)');
  const plan = page.getByRole('group', { name: 'Breakpoints' });
  const verdict = page.getByRole('region', { name: 'Verdict' });
  // Without its breakpoint the holder lives, sends and releases.
  await plan.getByRole('button', { name: 'Remove breakpoint 1' }).click();
  await expect(plan).toContainText('None');
  await runAndWait(page, 'setnx-no-expiry (broken)');
  await expect(verdict).toContainText('E-mails sent: 1 — should be 1');

  // Killed at holding-lock: the key never expires and nobody sends.
  await plan.getByRole('button', { name: 'Add breakpoint' }).click();
  await expect(plan.getByRole('combobox', { name: 'Breakpoint 1 checkpoint' })).toHaveValue('holding-lock');
  await expect(plan).toContainText('the first worker there is killed (SIGKILL) at holding-lock');
  await runAndWait(page, 'setnx-no-expiry (broken)');
  await expect(verdict).toContainText('E-mails sent: 0 — should be 1');
  await expect(verdict).toContainText('breakpoints: kill at holding-lock');
  await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('killed by SIGKILL');

  // Stalled there for 400 ms instead: a real SIGSTOP, drawn as a stall.
  await plan.getByRole('combobox', { name: 'Breakpoint 1 action' }).selectOption('stall');
  await plan.getByRole('spinbutton', { name: 'Breakpoint 1 stall (ms)' }).fill('400');
  await expect(plan).toContainText('the first worker there stalls 400 ms (SIGSTOP) at holding-lock');
  await runAndWait(page, 'setnx-no-expiry (broken)');
  await expect(
    page.getByRole('region', { name: 'Timeline' }).getByRole('img', { name: /process stalled from \d+ ms to \d+ ms$/ }),
  ).toBeVisible();
  await expect(verdict).toContainText('E-mails sent: 1 — should be 1');
});

test('half speed stretches every sleep and stall, and keeps the verdict', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'fencing', 'lease-only (broken)');
  const speed = page.getByRole('combobox', { name: 'Speed' });
  await page.locator('body').press('s'); // slower: 0.75×
  await expect(speed).toHaveValue('0.75');
  await speed.selectOption('0.5');
  await runAndWait(page, 'lease-only (broken)');
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict).toContainText('at 0.5×');
  await expect(verdict).toContainText('Stale writes accepted: 1 — should be 0');
  // pauseMs is 2500: at half speed worker-1's process stays stopped about 5 s.
  const stall = page
    .getByRole('region', { name: 'Timeline' })
    .getByRole('img', { name: /^worker-1 process stalled from \d+ ms to [\d.]+ (ms|s)$/ });
  const name = (await stall.getAttribute('aria-label')) ?? '';
  const [, from, to, unit] = /from (\d+) ms to ([\d.]+) (ms|s)$/.exec(name)!;
  const lasted = Number(to) * (unit === 's' ? 1000 : 1) - Number(from);
  expect(lasted).toBeGreaterThan(4800);
});

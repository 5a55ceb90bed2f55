// "Fix it yourself" on duplicate-job, the way a learner does it: open the exercise from the
// scenario, edit blind-del in the editor into a half-fix (each holder's own token, but still
// a plain DEL for the release, which deletes the next holder's lock when the work outlasts
// the lease), check it and see the set that exposes it fail with the near-miss named; then
// make the release one atomic compare-and-delete (Lua) and see every set pass. The server
// under test is bound to loopback, so it runs edited code; the grades come from real runs
// against the real stores.
import { expect, test, type Page } from '@playwright/test';
import { openPlayground } from './racelab.js';

/** Every declared set runs: four real runs, one after another, on a machine that may be busy. */
const CHECK_TIMEOUT = 180_000;

/** Puts `text` in place of the code on the editor line that holds `marker` (its indentation kept). */
async function replaceLine(page: Page, marker: string, text: string): Promise<void> {
  const line = page.locator('.cm-line', { hasText: marker });
  await expect(line).toHaveCount(1);
  await line.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home'); // to the line's first character after its indentation
  await page.keyboard.insertText(text);
  await expect(page.locator('.cm-content')).toContainText(text.split('\n')[0] ?? text);
}

async function checkMyFix(page: Page) {
  await page.getByRole('button', { name: 'Check my fix' }).click();
  const results = page.getByRole('region', { name: 'Check my fix' });
  await expect(results.getByRole('status')).toHaveText(
    /^(Solved|Not yet|Your code does not compile|The server refused|The check did not finish)/,
    {
      timeout: CHECK_TIMEOUT,
    },
  );
  return results;
}

test.describe.configure({ timeout: 2 * CHECK_TIMEOUT + 60_000 });

test('a token with a plain DEL release fails where the work outlasts the lease, named as that near-miss; the Lua fix passes every set', async ({
  page,
}) => {
  await openPlayground(page, '/?scenario=duplicate-job');
  await page.getByRole('button', { name: 'Fix it yourself' }).click();
  await expect(page).toHaveURL(/exercise=duplicate-job/);
  const editor = page.getByRole('textbox', { name: 'Your fix: the code of blind-del' });
  await expect(editor).toContainText("job.redis.set(key, 'locked', 'PX', job.leaseMs, 'NX')");

  // The half-fix: each holder's own token, but the release is still the plain DEL it was.
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.insertText("import { randomUUID } from 'node:crypto';\n");
  await replaceLine(
    page,
    "'locked'",
    "const token = randomUUID();\n    const ok = await job.redis.set(key, token, 'PX', job.leaseMs, 'NX');",
  );
  await expect(editor).toContainText('const deleted = await job.redis.del(key);');

  let results = await checkMyFix(page);
  await expect(results.getByRole('status')).toHaveText(/^Not yet: \d of \d sets pass$/);
  const failed = results.locator('.exercise-set.failed');
  await expect(failed.first()).toBeVisible();
  // The set's verdict words and reason, and the mistake named as the scenario's near-miss.
  // Where worker-1's work outlasts its lease, its DEL removes worker-2's lock: the set's reason says so.
  await expect(failed.first()).toContainText(
    "fails at workers 3, work 3 s, lease 2 s, arrival late, failure first fails: worker-1's fetch outlasts",
  );
  await expect(failed.first()).toContainText(/E-mails sent: 2 — should be 1/);
  await expect(failed.first().locator('.exercise-near-miss')).toContainText(/Near-miss: .*plain DEL release/);
  await expect(failed.first().locator('.exercise-near-miss')).toContainText('it deletes the lock whoever holds it now');

  // The whole fix: the compare and the delete as one step inside Redis.
  await replaceLine(
    page,
    'job.redis.del(key)',
    "const deleted = Number(await job.redis.eval(\"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end\", 1, key, token));",
  );
  results = await checkMyFix(page);
  await expect(results.getByRole('status')).toHaveText('Solved: every set passes');
  const sets = results.getByRole('list', { name: 'Sets the fix is graded at' }).getByRole('listitem');
  const count = await sets.count();
  expect(count).toBeGreaterThan(1);
  await expect(results.locator('.exercise-set.passed')).toHaveCount(count);
  await expect(page.getByRole('heading', { name: /Fix it yourself: .* solved/ })).toBeVisible();

  // Solved is remembered in this browser: the index marks it after a reload, with the edited code kept.
  await page.reload();
  await expect(page.getByRole('button', { name: /: solved$/ })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Your fix: the code of blind-del' })).toContainText('redis.call');
});

test('hints open one at a time, the solution only after a confirm, and Reset brings back the broken code', async ({ page }) => {
  await openPlayground(page, '/?scenario=duplicate-job&exercise=duplicate-job');
  const hints = page.getByRole('region', { name: 'Hints' });
  await expect(hints.getByRole('listitem')).toHaveCount(0);
  await hints.getByRole('button', { name: /^Show a hint \(1 of \d\)$/ }).click();
  await expect(hints.getByRole('listitem')).toHaveCount(1);
  await hints.getByRole('button', { name: /^Show the next hint \(2 of \d\)$/ }).click();
  await expect(hints.getByRole('listitem')).toHaveCount(2);

  const solution = page.getByRole('region', { name: 'Reference solution' });
  await solution.getByRole('button', { name: 'Show solution' }).click();
  // Asked first: Cancel has the focus, and nothing was fetched.
  await expect(solution.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await solution.getByRole('button', { name: 'Cancel' }).click();
  await expect(solution.getByRole('button', { name: 'Show solution' })).toBeFocused();
  await solution.getByRole('button', { name: 'Show solution' }).click();
  await solution.getByRole('button', { name: 'Show it' }).click();
  await expect(solution.getByLabel(/^Reference solution: /)).toContainText('token');

  // An edit, then Reset (with its confirm): the starting code again.
  const editor = page.getByRole('textbox', { name: 'Your fix: the code of blind-del' });
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.insertText('// my first try\n');
  await expect(editor).toContainText('// my first try');
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await page.getByRole('button', { name: 'Reset to the start' }).click();
  await expect(editor).not.toContainText('// my first try');

  // The editor does not trap the keyboard: Escape, then Tab, moves the focus on.
  await editor.click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(editor).not.toBeFocused();
  await expect(page.getByRole('button', { name: 'Run my code' })).toBeFocused();

  // The hints opened are remembered.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Hints' }).getByRole('listitem')).toHaveCount(2);
});

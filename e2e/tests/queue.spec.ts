// A start that finds every run slot taken waits in line, as a person sees it: a server of one
// slot (RACELAB_RUN_SLOTS=1, started by this spec), one page whose run holds the slot until
// the test cancels it, and a second page whose Run waits "1st in line", then either leaves
// the line with the keyboard or waits and runs to its verdict once the slot frees.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';

const main = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
/**
 * The holder's run cannot end by itself while the test goes on: every worker of no-lock works
 * (16 s at a quarter speed), its worker-1 is paused from the page (SIGSTOP) at once, and the
 * run waits for it, with its deadline more than a minute away.
 */
const HOLDER = '/?scenario=duplicate-job&variant=no-lock&p.workMs=4000&speed=0.25';
const SHORT = '/?scenario=lost-update&variant=atomic-update';

let server: ChildProcess;
let address: string;

test.beforeAll(async () => {
  // A free port (PORT=0); the address is read from what it prints once it listens.
  server = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', RACELAB_RUN_SLOTS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  address = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const found = /playground on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    server.on('exit', () => reject(new Error(`the server exited: ${output}`)));
  });
});
test.afterAll(async () => {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
});

/** Opens the holder's page, starts its run and pauses its worker-1: the one slot stays taken. */
async function takeTheSlot(page: Page): Promise<void> {
  await openPlayground(page, address + HOLDER);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText('Running…');
  await page.getByRole('button', { name: 'Pause worker-1' }).click();
  await expect(page.getByRole('button', { name: 'Resume worker-1' })).toBeVisible();
}

/** Cancels the holder's run, which frees the slot. */
async function freeTheSlot(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Cancel run' }).click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: RUN_TIMEOUT });
}

/** Opens a second page and presses Run: it waits first in line. */
async function waitInLine(page: Page): Promise<void> {
  await openPlayground(page, address + SHORT);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('region', { name: 'Verdict' }).getByRole('status');
  await expect(status).toHaveText(/^Every run slot is taken: 1st in line, about \d+ s$/);
  await expect(page.getByText('Waiting in line for a run slot…')).toBeVisible();
}

test('a page waits in line with its position, and leaves the line from the keyboard', async ({ page, context }) => {
  await takeTheSlot(page);
  const second = await context.newPage();
  await waitInLine(second);
  const leave = second.getByRole('button', { name: 'Leave the line' });
  await leave.focus();
  await expect(leave).toBeFocused();
  await second.keyboard.press('Enter');
  await expect(leave).toBeHidden();
  await expect(second.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(
    'No run yet: choose a variant and press Run.',
  );
  // The slot frees; the page that left the line never gets a run.
  await freeTheSlot(page);
  await expect(second.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(
    'No run yet: choose a variant and press Run.',
  );
});

test('a page that waits in line runs to its verdict once the slot frees', async ({ page, context }) => {
  await takeTheSlot(page);
  const second = await context.newPage();
  await waitInLine(second);
  await freeTheSlot(page);
  const verdict = second.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
  await expect(verdict).toContainText('Final stock: 5 — should be 5');
});

// A page that loses its socket mid-run: it says so, reconnects, resumes the run's stream
// from the last event it had, and shows the run as it really ended. The socket is cut
// between page and server by the test (a proxy on the wire, socketProxy.ts), at a moment
// the server's own messages choose: once the lock's holder has started its work. Both
// holders of the page's socket are tried: its tick worker, and the page itself where the
// browser has no OffscreenCanvas.
import { expect, type Page } from '@playwright/test';
import { eventsOf, readServerMessage } from '@racelab/shared';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';
import { test, type SocketProxy } from './socketProxy.js';

type Holder = 'tick worker' | 'page';

/** The holder works 3 s: the run is surely going when the socket is cut. */
const SETUP = '/?scenario=duplicate-job&variant=token-lua&p.workMs=3000';

/**
 * Opens the page through the proxy, its socket held by its tick worker (as in a browser that
 * draws on canvases off the main thread) or by the page itself (as in one that cannot: no
 * OffscreenCanvas), presses Run and returns once the server says the lock's holder is at work;
 * `ended`: the server has sent the run's end, whether the page got it or not.
 */
async function runToWork(page: Page, proxy: SocketProxy, holder: Holder): Promise<{ ended: Promise<void> }> {
  let workStarted = () => {};
  let runEnded = () => {};
  const started = new Promise<void>((resolve) => (workStarted = resolve));
  const ended = new Promise<void>((resolve) => (runEnded = resolve));
  proxy.onServerMessage = (text) => {
    const events = eventsOf(readServerMessage(text));
    if (events.some((e) => e.type === 'work-started')) workStarted();
    if (events.some((e) => e.type === 'run-finished' || e.type === 'run-failed')) runEnded();
  };
  if (holder === 'page')
    await page.addInitScript(() => {
      delete (window as { OffscreenCanvas?: unknown }).OffscreenCanvas;
    });
  await openPlayground(page, proxy.origin + SETUP);
  expect(page.workers(), 'the tick worker, only where it holds the socket').toHaveLength(holder === 'tick worker' ? 1 : 0);
  await expect(page.getByRole('spinbutton', { name: 'Work', exact: true })).toHaveValue('3000');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await started;
  return { ended };
}

for (const holder of ['tick worker', 'page'] as const)
  test.describe(`a page that loses its socket mid-run (socket held by the ${holder})`, () => {
    test('the run goes on without the page, and the page follows it again to its verdict', async ({ page, socketProxy }) => {
      const { ended } = await runToWork(page, socketProxy, holder);
      socketProxy.cut({ server: false });
      const verdict = page.getByRole('region', { name: 'Verdict' });
      await expect(verdict.getByRole('status')).toHaveText('Connection lost during the run — reconnecting to follow it…');
      await expect(page.getByText('reconnecting…', { exact: true })).toBeVisible();
      // The page comes back only once the run is over: its end, the write and more were sent while it was away.
      await ended;
      socketProxy.release();
      await expect(page.getByText('connected', { exact: true })).toBeVisible();
      await expect(verdict.getByRole('status')).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
      await expect(verdict).toContainText('E-mails sent: 1 — should be 1');
      // The stream resumed from the last event the page had: no event twice, none missing.
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await expect(timeline.getByRole('img', { name: /^worker-\d write to email accepted at \d+ ms$/ })).toHaveCount(1);
      await expect(timeline.getByRole('img', { name: /^worker-\d skipped the job/ })).toHaveCount(2);
      expect(socketProxy.socketsOpened, 'the first socket and the one that followed the run again').toBe(2);
    });

    test('the server saw the page go and ended the run: the page shows how it really ended', async ({ page, socketProxy }) => {
      await runToWork(page, socketProxy, holder);
      socketProxy.cut({ server: true });
      const verdict = page.getByRole('region', { name: 'Verdict' });
      await expect(verdict.getByRole('status')).toHaveText('Connection lost during the run — reconnecting to follow it…');
      // The server gives a page 1 s to come back; this one stays away 2.5 s.
      await page.waitForTimeout(2500);
      socketProxy.release();
      await expect(page.getByText('connected', { exact: true })).toBeVisible({ timeout: RUN_TIMEOUT });
      await expect(verdict.getByRole('status')).toHaveText('ERROR — the run failed', { timeout: RUN_TIMEOUT });
      await expect(verdict.getByRole('alert')).toHaveText(/the page that started the run went away/);
    });
  });

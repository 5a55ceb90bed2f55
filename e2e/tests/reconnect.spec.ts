// A page that loses its socket mid-run: it says so, reconnects, resumes the run's stream
// from the last event it had, and shows the run as it really ended. The socket is cut
// between page and server by the test (a proxy on the wire, socketProxy.ts), at a moment
// the server's own messages choose: once the lock's holder has started its work. Both
// holders of the page's socket are tried: its tick worker, and the page itself where the
// browser has no OffscreenCanvas.
import { expect, type Page } from '@playwright/test';
import { eventsOf, readServerMessage } from '@racelab/shared';
import { openPlayground, RUN_TIMEOUT, withPageSocket } from './racelab.js';
import { test, type SocketProxy } from './socketProxy.js';

/** The proxy's view of the server's messages: a run's holder at work, a run's end. */
function watch(proxy: SocketProxy) {
  let onWorkStarted: (() => void) | null = null;
  let onRunEnded: (() => void) | null = null;
  proxy.onServerMessage = (text) => {
    const events = eventsOf(readServerMessage(text));
    if (events.some((e) => e.type === 'work-started')) onWorkStarted?.();
    if (events.some((e) => e.type === 'run-finished' || e.type === 'run-failed')) onRunEnded?.();
  };
  return {
    workStarted: () => new Promise<void>((resolve) => (onWorkStarted = resolve)),
    /** The server has sent a run's end, whether the page got it or not. */
    runEnded: () => new Promise<void>((resolve) => (onRunEnded = resolve)),
  };
}

/**
 * Opens the page through the proxy, its socket held by its tick worker (as in a browser that
 * draws on canvases off the main thread) or by the page itself (as in one that cannot).
 */
async function open(page: Page, proxy: SocketProxy, holder: Holder, path: string): Promise<void> {
  if (holder === 'page') await withPageSocket(page);
  await openPlayground(page, proxy.origin + path);
  expect(page.workers(), 'the tick worker, only where it holds the socket').toHaveLength(holder === 'tick worker' ? 1 : 0);
}

type Holder = 'tick worker' | 'page';

for (const holder of ['tick worker', 'page'] as const)
  test.describe(`a page that loses its socket mid-run (socket held by the ${holder})`, () => {
    // The holder works 3 s: the run is surely going when the socket is cut.
    const setup = '/?scenario=duplicate-job&variant=token-lua&p.workMs=3000';

    test('the run goes on without the page, and the page follows it again to its verdict', async ({ page, socketProxy }) => {
      const server = watch(socketProxy);
      await open(page, socketProxy, holder, setup);
      await expect(page.getByRole('spinbutton', { name: 'Work', exact: true })).toHaveValue('3000');
      const started = server.workStarted();
      const ended = server.runEnded();
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await started;
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
      const server = watch(socketProxy);
      await open(page, socketProxy, holder, setup);
      await expect(page.getByRole('spinbutton', { name: 'Work', exact: true })).toHaveValue('3000');
      const started = server.workStarted();
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await started;
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

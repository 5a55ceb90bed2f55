// A page that loses its socket mid-run: it says so, reconnects, resumes the run's stream
// from the last event it had, and shows the run as it really ended. The socket is cut
// between page and server by the test (a route in the middle of the WebSocket), at a
// moment the server's own messages choose: once the lock's holder has started its work.
import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { eventsOf, readServerMessage } from '@racelab/shared';
import { openPlayground, RUN_TIMEOUT, withPageSocket } from './racelab.js';

/** Sits between the page and the server's socket: can cut it, and hold the page's reconnects back. */
async function middle(page: Page) {
  let current: { page: WebSocketRoute; server: WebSocketRoute } | null = null;
  let holding = false;
  let onWorkStarted: (() => void) | null = null;
  let onRunEnded: (() => void) | null = null;
  await withPageSocket(page);
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (holding) return ws.close({ code: 4001, reason: 'held back by the test' });
    const server = ws.connectToServer();
    current = { page: ws, server };
    server.onMessage((message) => {
      if (current?.page === ws && !holding) ws.send(message);
      const events = eventsOf(readServerMessage(String(message)));
      if (events.some((e) => e.type === 'work-started')) onWorkStarted?.();
      if (events.some((e) => e.type === 'run-finished' || e.type === 'run-failed')) onRunEnded?.();
    });
    ws.onMessage((message) => server.send(message));
    // A closed side does not close the other: `cut` says which sides close.
    ws.onClose(() => undefined);
    server.onClose(() => undefined);
  });
  return {
    workStarted: () => new Promise<void>((resolve) => (onWorkStarted = resolve)),
    /** The server has sent a run's end, whether the page got it or not. */
    runEnded: () => new Promise<void>((resolve) => (onRunEnded = resolve)),
    /**
     * Cuts the page's socket and turns its reconnects away until `release`. The server sees
     * its side close too when `server` says so; otherwise it keeps an open connection that
     * nobody reads, as it would for a page on a network that went quiet.
     */
    async cut({ server }: { server: boolean }) {
      holding = true;
      const cutting = current!;
      await cutting.page.close({ code: 4000, reason: 'cut by the test' });
      if (server) await cutting.server.close({ code: 4000, reason: 'cut by the test' });
    },
    release() {
      holding = false;
    },
  };
}

test.describe('a page that loses its socket mid-run', () => {
  // The holder works 3 s: the run is surely going when the socket is cut.
  const setup = '/?scenario=duplicate-job&variant=token-lua&p.workMs=3000';

  test('the run goes on without the page, and the page follows it again to its verdict', async ({ page }) => {
    const socket = await middle(page);
    await openPlayground(page, setup);
    await expect(page.getByRole('spinbutton', { name: 'Work', exact: true })).toHaveValue('3000');
    const started = socket.workStarted();
    const ended = socket.runEnded();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await started;
    await socket.cut({ server: false });
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await expect(verdict.getByRole('status')).toHaveText('Connection lost during the run — reconnecting to follow it…');
    await expect(page.getByText('reconnecting…', { exact: true })).toBeVisible();
    // The page comes back only once the run is over: its end, the write and more were sent while it was away.
    await ended;
    socket.release();
    await expect(page.getByText('connected', { exact: true })).toBeVisible();
    await expect(verdict.getByRole('status')).toHaveText(/^PASS/, { timeout: RUN_TIMEOUT });
    await expect(verdict).toContainText('E-mails sent: 1 — should be 1');
    // The stream resumed from the last event the page had: no event twice, none missing.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect(timeline.getByRole('img', { name: /^worker-\d write to email accepted at \d+ ms$/ })).toHaveCount(1);
    await expect(timeline.getByRole('img', { name: /^worker-\d skipped the job/ })).toHaveCount(2);
  });

  test('the server saw the page go and ended the run: the page shows how it really ended', async ({ page }) => {
    const socket = await middle(page);
    await openPlayground(page, setup);
    await expect(page.getByRole('spinbutton', { name: 'Work', exact: true })).toHaveValue('3000');
    const started = socket.workStarted();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await started;
    await socket.cut({ server: true });
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await expect(verdict.getByRole('status')).toHaveText('Connection lost during the run — reconnecting to follow it…');
    // The server gives a page 1 s to come back; this one stays away 2.5 s.
    await page.waitForTimeout(2500);
    socket.release();
    await expect(page.getByText('connected', { exact: true })).toBeVisible({ timeout: RUN_TIMEOUT });
    await expect(verdict.getByRole('status')).toHaveText('ERROR — the run failed', { timeout: RUN_TIMEOUT });
    await expect(verdict.getByRole('alert')).toHaveText(/the page that started the run went away/);
  });
});

// A phone's fingers on the timeline: two fingers spread apart zoom in around their middle,
// one finger's sideways drag pans, and a tap on a mark shows its details. The touches are
// the browser's own (CDP Input.dispatchTouchEvent), so they pass through touch-action and
// pointer events as a real screen's do.
import { expect, test, type CDPSession, type Locator, type Page } from '@playwright/test';
import { boxOf, timelineOf, verdictStatus } from './layout.js';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

type Point = { x: number; y: number };

/** Fingers down at `from`, moved in `steps` straight to `to`, then lifted (one point per finger). */
async function touchMove(cdp: CDPSession, from: Point[], to: Point[], steps = 8): Promise<void> {
  const at = (t: number) => from.map((p, id) => ({ id, x: p.x + (to[id]!.x - p.x) * t, y: p.y + (to[id]!.y - p.y) * t }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i <= steps; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i / steps) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The time window the axis names, in ms ("Time axis from 842 ms to 1553 ms"). */
async function axisWindow(axis: Locator): Promise<{ startMs: number; endMs: number }> {
  const label = (await axis.getAttribute('aria-label')) ?? '';
  const ms = (text: string) => (text.endsWith(' s') ? parseFloat(text) * 1000 : parseFloat(text));
  const m = /^Time axis from (.+) to (.+)$/.exec(label);
  expect(m, `axis label: ${label}`).not.toBeNull();
  return { startMs: ms(m![1]!), endMs: ms(m![2]!) };
}

/** Where on screen a finger lands on the lanes' tracks: inside the axis's span and the screen, at the height of a lane. */
async function trackSpot(page: Page, lane: Locator, axis: Locator): Promise<{ x0: number; x1: number; y: number }> {
  const a = await boxOf(axis);
  const l = await boxOf(lane);
  const vw = page.viewportSize()!.width;
  return { x0: Math.max(a.x, 0) + 10, x1: Math.min(a.x + a.width, vw) - 10, y: l.y + l.height / 2 };
}

test('a pinch zooms the timeline, a finger pans it, a tap on a mark shows its details', async ({ page, context }) => {
  await page.goto('/?replay=fencing-lease-only.json');
  await expect(verdictStatus(page)).toHaveText(/^FAIL/);
  const timeline = timelineOf(page);
  const axis = timeline.getByRole('img', { name: /^Time axis/ });
  const lane = timeline.getByRole('group', { name: 'worker-1', exact: true });
  const zoomOut = timeline.getByRole('button', { name: 'Zoom out' });
  await expect(zoomOut).toBeDisabled();
  const whole = await axisWindow(axis);
  const cdp = await context.newCDPSession(page);

  // Two fingers spread apart from 40 px to 200 px: the view narrows around their middle.
  const spot = await trackSpot(page, lane, axis);
  const mid = (spot.x0 + spot.x1) / 2;
  await touchMove(
    cdp,
    [
      { x: mid - 20, y: spot.y },
      { x: mid + 20, y: spot.y },
    ],
    [
      { x: mid - 100, y: spot.y },
      { x: mid + 100, y: spot.y },
    ],
  );
  await expect(zoomOut).toBeEnabled();
  const zoomed = await axisWindow(axis);
  expect(zoomed.endMs - zoomed.startMs).toBeLessThan((whole.endMs - whole.startMs) / 2);

  // One finger drags 120 px to the left: the view moves on to later times, as wide as before.
  await touchMove(cdp, [{ x: mid + 60, y: spot.y }], [{ x: mid - 60, y: spot.y }]);
  await expect.poll(async () => (await axisWindow(axis)).startMs).toBeGreaterThan(zoomed.startMs);
  const panned = await axisWindow(axis);
  expect(panned.endMs - panned.startMs).toBeCloseTo(zoomed.endMs - zoomed.startMs, 0);

  // Back to the whole run; a tap on worker-1's lease shows what it was.
  await page.locator('body').press('0');
  await expect(zoomOut).toBeDisabled();
  const lease = timeline.getByRole('img', { name: /^worker-1 held lock:document/ });
  const box = await boxOf(lease);
  const x = Math.max(box.x, spot.x0) + 8;
  await page.touchscreen.tap(x, box.y + box.height / 2);
  const tip = page.getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('worker-1 held lock:document');
  await expect(tip).toContainText('lease ttl 1000 ms');
});

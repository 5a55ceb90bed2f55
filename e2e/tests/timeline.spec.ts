// Seeing: belief next to truth, zombie windows, two holders named, ground truth lanes,
// zoom and pan by wheel, drag, buttons and keys, details on hover and focus, the story in
// plain words, and the code line each worker is at (live, and at the playhead).
import { expect, test, type Page } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

const timelineOf = (page: Page) => page.getByRole('region', { name: 'Timeline' });

test('belief beside truth, overlaps named, and the story in plain words', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'fencing', 'lease-only (broken)');
  await runAndWait(page, 'lease-only (broken)');
  const timeline = timelineOf(page);
  // What worker-1 believed, and what Redis itself held for it.
  await expect(timeline.getByRole('img', { name: /^worker-1 held lock:document from \d+ ms to \d+ ms \(expired\)$/ })).toBeVisible();
  await expect(timeline.getByRole('img', { name: /^Redis held lock:document for worker-1 from \d+ ms to \d+ ms$/ })).toBeVisible();
  const zombie = timeline.getByRole('img', { name: /^worker-1 zombie on lock:document from/ });
  await zombie.hover();
  await expect(page.getByRole('tooltip')).toContainText('the worker still believed it held the lock');
  await expect(timeline.getByRole('img', { name: /^2 workers at once — the lock said 1: / })).toBeVisible();
  // Ground truth: the key and the row as the server saw them.
  await expect(timeline.getByRole('group', { name: 'Redis lock:document' })).toBeVisible();
  await expect(timeline.getByRole('group', { name: 'PostgreSQL document' })).toContainText('worker-1 · fence 1');

  const story = page.getByRole('region', { name: 'Verdict' }).getByRole('list', { name: 'What happened' });
  await expect(story).toContainText(
    'worker-1 wrote document with fence 1 after worker-2 wrote with fence 2; the row took it — the stale write landed.',
  );
  await expect(story).toContainText('At the end, PostgreSQL held document = worker-1 · fence 1.');

  await choose(page, 'fencing', 'fenced (correct)');
  await runAndWait(page, 'fenced (correct)');
  await expect(story).toContainText(
    'worker-1 wrote document with fence 1 after worker-2 wrote with fence 2; the row refused it — the stale write was stopped.',
  );
});

test('the lanes are laid out when the server takes the run, before its workers start, and the run only adds to them', async ({ page }) => {
  // Notes, from the page itself, whether the run's run-started had come when its first lane was drawn.
  await page.addInitScript(() => {
    const seen = { started: false, firstLane: null as Element | null, startedAtFirstLane: null as boolean | null };
    (window as unknown as { __lanes: typeof seen }).__lanes = seen;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener('message', (e: MessageEvent) => {
          if (typeof e.data === 'string' && e.data.includes('"run-started"')) seen.started = true;
        });
      }
    };
    const watch = () =>
      new MutationObserver(() => {
        if (seen.firstLane) return;
        seen.firstLane = document.querySelector('.tl-row.lane');
        if (seen.firstLane) seen.startedAtFirstLane = seen.started;
      }).observe(document.documentElement, { subtree: true, childList: true });
    if (document.documentElement) watch();
    else document.addEventListener('DOMContentLoaded', watch);
  });
  await openPlayground(page);
  await choose(page, 'duplicate-job', 'no-lock (broken)');
  await page.getByRole('spinbutton', { name: /^Workers/ }).fill('4');
  await runAndWait(page, 'no-lock (broken)');
  const lanes = await page.evaluate(() => {
    const seen = (window as unknown as { __lanes: { firstLane: Element | null; startedAtFirstLane: boolean | null } }).__lanes;
    return {
      startedAtFirstLane: seen.startedAtFirstLane,
      firstLaneName: seen.firstLane?.getAttribute('aria-label'),
      kept: seen.firstLane?.isConnected,
    };
  });
  // The first lane came before the run-started, named as the run names its first worker, and
  // is the same element at the end: the events drew into it, not a new lane.
  expect(lanes).toEqual({ startedAtFirstLane: false, firstLaneName: 'worker-1', kept: true });
  const timeline = timelineOf(page);
  await expect(timeline.getByRole('group', { name: /^worker-\d$/ })).toHaveCount(4);
});

test('zoom and pan with the wheel, a drag, the buttons and the keys', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'fencing', 'lease-only (broken)');
  await runAndWait(page, 'lease-only (broken)');
  const timeline = timelineOf(page);
  const axis = timeline.getByRole('img', { name: /^Time axis from/ });
  await expect(axis).toHaveAccessibleName(/^Time axis from 0 ms to [\d.]+ (ms|s)$/);
  const lateWrite = timeline.getByRole('img', { name: /^worker-1 write to document accepted with fence 1 at \d+ ms$/ });
  await expect(lateWrite).toBeVisible();

  // The wheel over the tracks zooms around the pointer: near the start, the late write leaves the drawing.
  await axis.scrollIntoViewIfNeeded();
  const box = (await axis.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.02, box.y + box.height + 60);
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -150);
  await expect(lateWrite).toHaveCount(0);
  await expect(axis).toHaveAccessibleName(/^Time axis from \d+ ms to \d+ ms$/);
  const zoomOut = page.getByRole('button', { name: 'Zoom out' });
  await expect(zoomOut).toBeEnabled();

  // A drag to the left shows later times.
  const before = await axis.getAttribute('aria-label');
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height + 60, { steps: 8 });
  await page.mouse.up();
  await expect(axis).not.toHaveAccessibleName(before!);

  // The fit button (and 0) show the whole run again.
  await page.getByRole('button', { name: 'Show the whole run' }).click();
  await expect(lateWrite).toBeVisible();
  await expect(zoomOut).toBeDisabled();

  // Keys: + zooms in, → pans, 0 fits.
  await page.keyboard.press('+');
  await expect(zoomOut).toBeEnabled();
  const zoomed = await axis.getAttribute('aria-label');
  await page.keyboard.press('ArrowRight');
  await expect(axis).not.toHaveAccessibleName(zoomed!);
  await page.keyboard.press('0');
  await expect(zoomOut).toBeDisabled();
});

test('the code shows the line each worker is at, live and at the playhead', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'duplicate-job', 'setnx-then-expire (broken)');
  await runAndWait(page, 'setnx-then-expire (broken)');
  const code = page.getByRole('region', { name: 'Code' });
  // Under the timeline, which takes the stage's whole width.
  const [codeBox, timelineBox] = [await code.boundingBox(), await timelineOf(page).boundingBox()];
  expect(codeBox!.y).toBeGreaterThanOrEqual(timelineBox!.y + timelineBox!.height);
  expect(codeBox!.x).toBeGreaterThanOrEqual(timelineBox!.x - 1);
  const source = (await code.getByLabel('Source of setnx-then-expire').textContent()) ?? '';
  const line = source.split('\n').findIndex((l) => l.includes("checkpoint('between-setnx-and-expire')")) + 1;
  expect(line).toBeGreaterThan(0);
  const steps = code.getByRole('list', { name: 'Where each worker is' });
  // The default plan kills the first worker between SETNX and EXPIRE: it stays on that line.
  await expect(steps).toContainText(new RegExp(`worker-\\d: line ${line}, killed`));
  await expect(code).toContainText('Now:');
  // The code follows one worker: the killed one, once chosen; its line is scrolled into view.
  const killed = steps.getByRole('button', { name: new RegExp(`worker-\\d: line ${line}, killed`) });
  await killed.click();
  await expect(killed).toHaveAttribute('aria-pressed', 'true');
  const lineInView = () =>
    code.getByLabel('Source of setnx-then-expire').evaluate((pre, text) => {
      const el = Array.from(pre.querySelectorAll('[data-line]')).find((e) => e.textContent?.includes(text));
      const [box, at] = [pre.getBoundingClientRect(), el!.getBoundingClientRect()];
      return at.top >= box.top && at.bottom <= box.bottom;
    }, "checkpoint('between-setnx-and-expire')");
  await expect.poll(lineInView).toBe(true);

  // Stepping moves the playhead; the code follows it. Esc goes back to now.
  await page.keyboard.press('.');
  await expect(code).toContainText(/At \d+ ms \(playhead\):/);
  await expect(steps).not.toContainText('killed');
  await page.keyboard.press(',');
  await page.keyboard.press(',');
  await page.keyboard.press('Escape');
  await expect(code).toContainText('Now:');
  await expect(steps).toContainText('killed');

  // A click on the time axis puts the playhead there.
  const axis = timelineOf(page).getByRole('img', { name: /^Time axis from/ });
  await axis.click({ position: { x: 5, y: 10 } });
  await expect(code).toContainText(/At \d+ ms \(playhead\):/);
});

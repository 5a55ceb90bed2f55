// The faults no signal draws: a worker's own event loop blocked by a synchronous task (a band
// like a stall), a node whose clock is late (its clock under its name, a clock mark where it
// fires), and a Redis node whose clock jumps (a mark in the lane of the worker that plays it,
// naming the mechanism, and the node's clock row). Each comes from facts of its own, seen
// here on a live run.
import { expect, test, type Page } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

const timelineOf = (page: Page) => page.getByRole('region', { name: 'Timeline' });
const legendEntry = (page: Page, text: string) =>
  page.getByRole('list', { name: 'Legend' }).getByRole('listitem').filter({ hasText: text });

test.use({ viewport: { width: 1920, height: 1080 } });

/** How the server on this machine moves node-3's clock (labnet/mechanisms.ts): its own wall clock on Linux, where the shim builds. */
const JUMPED = process.platform === 'linux' ? 'LD_PRELOAD wall clock' : 'simulated expiry';

test('event-loop-block: worker-1’s blocked loop is a band of its own, named and explained', async ({ page }, testInfo) => {
  await openPlayground(page);
  await choose(page, 'event-loop-block', 'no-watchdog (broken)');
  expect(await runAndWait(page, 'no-watchdog (broken)')).toMatch(/^FAIL/);
  const timeline = timelineOf(page);
  const band = timeline
    .getByRole('group', { name: 'worker-1', exact: true })
    .getByRole('img', { name: /^worker-1's event loop blocked from \d+ ms to [\d.]+ (ms|s)$/ });
  await expect(band).toBeVisible();
  await expect(band).toHaveText('event loop blocked');
  await expect(timeline.getByRole('group', { name: 'worker-2', exact: true }).getByRole('img', { name: /event loop blocked/ })).toHaveCount(
    0,
  );
  await band.hover();
  await expect(page.getByRole('tooltip')).toContainText('synchronous task: event loop blocked');
  await expect(page.getByRole('tooltip')).toContainText('no timer, no I/O callback and no lease renewal can run meanwhile');
  await expect(legendEntry(page, 'event loop blocked')).not.toHaveAttribute('aria-disabled', 'true');
  await page.mouse.move(0, 0);
  const path = testInfo.outputPath('event-loop-block-no-watchdog.png');
  await page.screenshot({ path });
  await testInfo.attach('event-loop-block-no-watchdog', { path, contentType: 'image/png' });
});

test('cron-clock-skew: each node shows its own clock, and node-2’s late clock is marked where it fires', async ({ page }, testInfo) => {
  await openPlayground(page);
  await choose(page, 'cron-clock-skew', 'release-when-done (broken)');
  expect(await runAndWait(page, 'release-when-done (broken)')).toMatch(/^FAIL/);
  const timeline = timelineOf(page);
  const node1 = timeline.getByRole('group', { name: 'node-1', exact: true });
  const node2 = timeline.getByRole('group', { name: 'node-2', exact: true });
  await expect(node1).toContainText('clock: reference');
  await expect(node2).toContainText('clock: −1000 ms');
  await expect(
    node2.getByRole('img', { name: /^node-2's clock is 1000 ms behind node-1 \((libfaketime|simulated clock)\) at [\d.]+ (ms|s)$/ }),
  ).toBeVisible();
  await expect(node1.getByRole('img', { name: /clock is/ })).toHaveCount(0);
  await expect(legendEntry(page, 'the worker’s own clock')).not.toHaveAttribute('aria-disabled', 'true');
  const path = testInfo.outputPath('cron-clock-skew-release-when-done.png');
  await page.screenshot({ path });
  await testInfo.attach('cron-clock-skew-release-when-done', { path, contentType: 'image/png' });
});

test('redlock: node-3’s clock jump is marked in worker-1’s lane with its mechanism, and node-3’s clock row shows it', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'redlock', 'redlock (broken)');
  for (const [name, value] of Object.entries({ 'Clock jump on node-3': '1000', Pause: '0' }))
    await page.getByRole('spinbutton', { name, exact: true }).fill(value);
  await page.getByRole('combobox', { name: 'Network' }).selectOption('split');
  expect(await runAndWait(page, 'redlock (broken)')).toMatch(/^FAIL/);
  const timeline = timelineOf(page);
  await expect(
    timeline
      .getByRole('group', { name: 'worker-1', exact: true })
      .getByRole('img', { name: new RegExp(`^worker-1 clock-jump node-3 \\+1000 ms, by ${JUMPED} at [\\d.]+ (ms|s)$`) }),
  ).toBeVisible();
  await expect(timeline.getByRole('group', { name: 'Redis node node-3 clock', exact: true })).toContainText('+1000 ms');
});

// Exports from a run on the page: the recording (which opens again), a Perfetto / Chrome
// trace, a Jepsen-style history, and the visible timeline as SVG and PNG.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';

async function download(page: Page, button: string): Promise<{ name: string; body: Buffer }> {
  // The exports are a menu, collapsed until opened.
  const menu = page.getByRole('toolbar', { name: 'Export' });
  if (!(await menu.isVisible())) await page.getByText('Export', { exact: true }).click();
  await expect(menu).toBeVisible();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), body: await readFile(await file.path()) };
}

test('a run exports to a recording, a Perfetto trace, a Jepsen history, SVG and PNG', async ({ page }) => {
  await openPlayground(page);
  await choose(page, 'fencing', 'lease-only (broken)');
  await runAndWait(page, 'lease-only (broken)');

  const trace = await download(page, 'Export Perfetto trace');
  expect(trace.name).toBe('racelab-fencing-lease-only.trace.json');
  const { traceEvents: events } = JSON.parse(trace.body.toString()) as {
    traceEvents: { ph: string; name: string; cat?: string; ts?: number; dur?: number; args?: { name?: string } }[];
  };
  expect(events.find((e) => e.ph === 'M' && e.name === 'process_name')!.args!.name).toBe('fencing · lease-only (broken)');
  const lease = events.find((e) => e.ph === 'X' && e.cat === 'lease')!;
  expect(lease.name).toBe('lease lock:document');
  expect(lease.dur).toBeGreaterThan(900_000); // µs: a 1000 ms lease
  expect(events.some((e) => e.ph === 'X' && e.cat === 'stall')).toBe(true);
  expect(events.some((e) => e.ph === 'i' && e.cat === 'write-accepted')).toBe(true);

  const history = await download(page, 'Export Jepsen history');
  expect(history.name).toBe('racelab-fencing-lease-only.history.edn');
  const ops = history.body.toString().trim().split('\n');
  expect(ops[0]).toMatch(/^\{:index 0, :type :invoke, :f :acquire, :value "lock:document", :process \d, :time \d+, :worker "worker-\d"\}$/);
  expect(ops.some((l) => /:type :ok, :f :write, :value \["document" "draft by worker-1" 1\]/.test(l))).toBe(true);

  const svg = await download(page, 'Export SVG');
  expect(svg.name).toBe('racelab-fencing-lease-only.timeline.svg');
  const text = svg.body.toString();
  expect(text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(text).toContain('worker-1');
  expect(text).toContain('ZOMBIE');

  const png = await download(page, 'Export PNG');
  expect(png.name).toBe('racelab-fencing-lease-only.timeline.png');
  expect(png.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.body.readUInt32BE(16)).toBeGreaterThan(1000); // width at 2×

  // The recording opens again in the page and gives the same verdict.
  const recording = await download(page, 'Download recording');
  expect(recording.name).toBe('racelab-fencing-lease-only.json');
  await page.reload();
  await page.getByLabel('Open recording').setInputFiles({ name: recording.name, mimeType: 'application/json', buffer: recording.body });
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^FAIL/);
  await expect(verdict).toContainText('recorded run');
  await expect(verdict).toContainText('Stale writes accepted: 1 — should be 0');
});

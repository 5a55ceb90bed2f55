// What both browser benchmarks do with the page: open it, set the emitter's parameters,
// line up the page's clock with the bench server's, and save figures for the runner.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

/** Where the runner reads the figures (one JSON file per benchmark). */
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? join(process.cwd(), 'bench-results');

export function saveResult(name: string, result: unknown): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${name}.json`), JSON.stringify(result, null, 2));
}

export async function openBenchPage(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByText('connected', { exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('bench-emitter');
  // runToVerdict's quiet wait polls from the page's main world, where Playwright's own script
  // is compiled on first use (~15 ms of CPU): done here, not during the first timed run.
  await page.waitForFunction(() => true);
}

export interface EmitterParams {
  workers: number;
  events: number;
  rate: number;
  mode: 'marks' | 'mix';
}

export async function setParams(page: Page, p: EmitterParams): Promise<void> {
  await page.getByRole('spinbutton', { name: /^Workers/ }).fill(String(p.workers));
  await page.getByRole('spinbutton', { name: /^Events/ }).fill(String(p.events));
  await page.getByRole('spinbutton', { name: /^Rate/ }).fill(String(p.rate));
  await page.getByRole('combobox', { name: /^Mode/ }).selectOption(p.mode);
}

/**
 * Presses Run and waits for the verdict's headline; returns it. `quiet`: while the run is
 * on, read one element's text four times a second instead of polling by role (a role
 * query walks the whole page's accessibility: a main-thread task of several ms in the
 * page being timed, each of which delays a frame).
 */
export async function runToVerdict(page: Page, timeoutMs: number, quiet = false): Promise<string> {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const headline = page.getByRole('region', { name: 'Verdict' }).getByRole('status');
  if (quiet)
    await page.waitForFunction(
      () => /^(PASS|FAIL|ERROR)/.test(document.querySelector('.panel.verdict .headline')?.textContent ?? ''),
      null,
      {
        timeout: timeoutMs,
        polling: 250,
      },
    );
  await expect(headline).toHaveText(/^(PASS|FAIL|ERROR)/, { timeout: timeoutMs });
  return (await headline.textContent()) ?? '';
}

/**
 * Offset to add to the page's wall clock (performance.timeOrigin + performance.now()) to
 * read the bench server's, NTP-style: of 40 GET /bench/now, the one with the shortest
 * round trip, whose midpoint is taken as the server's reading. Error ≤ half that round trip.
 */
export async function clockOffset(page: Page): Promise<{ offsetMs: number; rttMs: number }> {
  return page.evaluate(async () => {
    let best = { offsetMs: 0, rttMs: Number.POSITIVE_INFINITY };
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      const { wallMs } = (await (await fetch('/bench/now', { cache: 'no-store' })).json()) as { wallMs: number };
      const t1 = performance.now();
      if (t1 - t0 < best.rttMs) best = { offsetMs: wallMs - (performance.timeOrigin + (t0 + t1) / 2), rttMs: t1 - t0 };
    }
    return best;
  });
}

/** Nearest-rank percentile of numbers (p in 0..100). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// The static site (npm run site), built by its own builder into a temporary folder and served
// by a plain static server under a sub-path, with no racelab server, Redis or PostgreSQL:
// every shipped recording opens and plays to its verdict, the scorecard replays a cell, and
// the page opens no WebSocket and asks for nothing the folder does not have.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { SiteCatalog, SITE_CATALOG_FILE, ShippedRecordingIndex, type ScenarioManifest } from '@racelab/shared';
import { boxOf, expectNoWiderThanViewport, timelineOf } from './layout.js';
import { startStaticServer, type StaticServer } from './staticServer.js';

const BUILDER = fileURLToPath(new URL('../../tools/dist/site/buildSite.js', import.meta.url));
const BASE = '/some/sub/path/';
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A line of the variant's code as the recording carries it (the page shows it). */
function codeLineOf(file: string, variant: string): string {
  const recording = JSON.parse(readFileSync(join(dir, 'recordings', file), 'utf8')) as { scenario: ScenarioManifest };
  const code = recording.scenario.variants.find((v) => v.id === variant)?.code ?? '';
  return (
    code
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length >= 12) ?? `no code for ${variant} in ${file}`
  );
}

let dir: string;
let server: StaticServer;
let site: SiteCatalog;
test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'racelab-site-'));
  execFileSync(process.execPath, [BUILDER, '--out', dir], { stdio: 'pipe' });
  site = SiteCatalog.parse(JSON.parse(readFileSync(join(dir, SITE_CATALOG_FILE), 'utf8')));
  server = await startStaticServer(dir, { base: BASE });
});
test.afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the site's files name every other file relatively: the folder works at any path", () => {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/(?:src|href|content)="([^"]*)"/g)].map((m) => m[1] ?? '').filter((u) => /[./]/.test(u));
  expect(urls.length).toBeGreaterThanOrEqual(4);
  for (const url of urls) expect(url, url).toMatch(/^(\.\/|[a-z]+\/)/);
  for (const file of readdirSync(join(dir, 'assets')).filter((f) => f.endsWith('.js')))
    expect(readFileSync(join(dir, 'assets', file), 'utf8'), file).not.toMatch(/["'`]\/(assets|recordings|ws)\b/);
});

test('the site under a sub-path plays every shipped recording to its verdict, with no socket and no failed request', async ({ page }) => {
  test.setTimeout(180_000);
  const sockets: string[] = [];
  const failed: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText ?? 'failed'}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.url()}: HTTP ${r.status()}`);
  });
  // Every file index.json lists is in the site's catalog, which says which variant it shows.
  const index = ShippedRecordingIndex.parse(JSON.parse(readFileSync(join(dir, 'recordings/index.json'), 'utf8')));
  expect(site.recordings.map((r) => r.file).sort()).toEqual(index.map((r) => r.file).sort());

  await page.goto(server.pageUrl);
  const verdict = page.getByRole('region', { name: 'Verdict' });
  const headline = verdict.getByRole('status');
  const chapters = page.getByRole('navigation', { name: 'Scenarios' });
  const recordings = page.getByRole('group', { name: 'Recorded runs of this scenario' });
  // The first scenario's first recording is on screen without a click.
  const first = site.recordings.find((r) => r.scenario === site.scenarios[0]?.id && !r.correct);
  await expect(page.getByRole('heading', { level: 2, name: site.scenarios[0]?.title })).toBeVisible();
  await expect(recordings.getByRole('button', { pressed: true })).toHaveText(new RegExp(`^broken: ${first?.variant} — FAIL$`));
  await expect(headline).toHaveText(/^FAIL/);

  for (const scenario of site.scenarios) {
    const title = new RegExp(`^${escaped(scenario.title)}`);
    await chapters.getByRole('button', { name: title }).click();
    await expect(chapters.locator('[aria-current="true"]')).toHaveText(title);
    await expect(page.getByRole('heading', { level: 2, name: scenario.title })).toBeVisible();
    for (const recording of site.recordings.filter((r) => r.scenario === scenario.id)) {
      const expected = recording.correct ? 'PASS' : 'FAIL';
      const button = recordings.getByRole('button', {
        name: `${recording.correct ? 'correct' : 'broken'}: ${recording.variant} — ${expected}`,
        exact: true,
      });
      await button.click();
      await expect(button).toHaveAttribute('aria-pressed', 'true');
      // The variant's code, which the catalog leaves to the recording.
      await expect(page.getByRole('region', { name: 'Code' })).toContainText(codeLineOf(recording.file, recording.variant));
      await expect(headline).toHaveText(new RegExp(`^${expected}`));
      // Played again from its start: held at its first moment (no verdict there yet), the
      // verdict comes back only when the replay has moved the cursor through the whole log.
      await page.getByRole('combobox', { name: 'Speed' }).selectOption('2');
      await button.focus();
      await page.keyboard.press('.');
      await expect(headline).toHaveText(/\(playhead\)/);
      await page.getByRole('button', { name: 'Replay', exact: true }).click();
      await expect(headline).toHaveText(new RegExp(`^${expected}`));
    }
  }

  // The library scorecard, and one of its cells replayed (a shipped recording too).
  await page.getByRole('button', { name: 'Library scorecard' }).click();
  await page
    .getByRole('button', { name: /^Replay / })
    .first()
    .click();
  await expect(headline).toHaveText(/^(PASS|FAIL)/);
  await page.getByRole('button', { name: '← Back to the scorecard' }).click();
  await expect(page.getByRole('heading', { name: 'Check your own lock' })).toBeVisible();
  await expect(page.getByText('There is no racelab server behind this page')).toBeVisible();

  // The link names what is on screen, under the site's own path.
  expect(new URL(page.url()).pathname).toBe(BASE);
  expect(sockets).toEqual([]);
  expect(failed).toEqual([]);
});

test.describe('the site on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('shows the story, Replay and the top of the timeline on the first screen, and nothing wider than the screen', async ({ page }) => {
    await page.goto(server.pageUrl);
    await expect(page.getByRole('button', { name: 'Replay', exact: true })).toBeVisible();
    const timeline = await boxOf(timelineOf(page));
    expect(timeline.y).toBeLessThan(844);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectNoWiderThanViewport(page);
  });
});

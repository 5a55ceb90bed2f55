// racelab embedded in another site's page: a plain HTML host page on another origin
// (http://localhost:<port>, which the server lets frame it: RACELAB_FRAME_ANCESTORS in
// playwright.config.ts) frames the embed and drives it only by postMessage; messages from
// origins the embed does not trust change nothing. And links to a moment (`t=`, `event=`)
// of a replay and of a finished live run.
import { expect, test, type Page } from '@playwright/test';
import { choose, openPlayground, runAndWait } from './racelab.js';
import { hostHtml, startHostServer, type HostServer } from './hostPage.js';

interface Report {
  racelab: number;
  type: string;
  [field: string]: unknown;
}

let host: HostServer;
/** Another origin again: a page that is not the one the embed was told to trust. */
let stranger: HostServer;
test.beforeAll(async () => {
  host = await startHostServer(Number(process.env.RACELAB_E2E_EMBEDDER_PORT));
  stranger = await startHostServer();
});
test.afterAll(async () => {
  await host.close();
  await stranger.close();
});

const reports = (page: Page, type?: string) =>
  page.evaluate((t) => (window as unknown as { reports: Report[] }).reports.filter((r) => !t || r.type === t), type);
const send = (page: Page, message: object) =>
  page.evaluate((m) => (window as unknown as { send: (m: object) => void }).send(m), { racelab: 1, ...message });

/** The embed's messages about what it ignored (console.debug in the frame). */
function ignoredLog(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => {
    if (m.text().startsWith('racelab embed: ignored')) lines.push(m.text());
  });
  return lines;
}

test('a host page on another origin drives the embed by postMessage and reads back what it shows', async ({ page, baseURL }) => {
  const url = host.page('/post.html', hostHtml(`${baseURL}/?embed=1&origin=${host.origin}`));
  await page.goto(url);
  await expect.poll(() => reports(page, 'ready')).toEqual([{ racelab: 1, type: 'ready', shown: null }]);
  const embed = page.frameLocator('#embed');

  await send(page, { type: 'select', recording: 'fencing-lease-only.json' });
  await expect
    .poll(() => reports(page, 'verdict'))
    .toEqual([
      {
        racelab: 1,
        type: 'verdict',
        scenario: 'fencing',
        variant: 'lease-only',
        recording: 'fencing-lease-only.json',
        runId: null,
        pass: false,
        headline: expect.stringMatching(/^FAIL/),
      },
    ]);
  await expect(embed.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^FAIL/);

  await send(page, { type: 'seek', ms: 1200 });
  await expect.poll(async () => (await reports(page, 'cursor')).at(-1)).toMatchObject({ ms: 1200, playing: false });
  await expect(embed.getByLabel('Playhead')).toHaveText(/^1200 ms \//);
  // The lanes as they stood at 1200 ms: worker-2 holds the lease and has not written yet.
  const timeline = embed.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('img', { name: /^worker-2 write to document accepted/ })).toHaveCount(0);

  await send(page, { type: 'play' });
  await expect.poll(async () => (await reports(page, 'cursor')).some((r) => r.playing === true && (r.ms as number) > 1200)).toBe(true);
  await expect.poll(() => reports(page, 'ended'), { timeout: 30_000 }).toHaveLength(1);
  const [ended] = await reports(page, 'ended');
  const last = (await reports(page, 'cursor')).at(-1)!;
  expect(last).toMatchObject({ playing: false, ms: ended!.ms, endMs: ended!.ms });
  // The replay reached the end: the verdict again, and the lanes whole.
  await expect.poll(() => reports(page, 'verdict')).toHaveLength(2);
  await expect(timeline.getByRole('img', { name: /^worker-1 write to document accepted/ })).toBeVisible();
  // Cursor reports are throttled, not one a frame: a replay of ~2.8 s at 1× tells far fewer than its ~170 frames.
  expect((await reports(page, 'cursor')).length).toBeLessThan(60);

  // Malformed commands are ignored, and the embed keeps listening.
  const ignored = ignoredLog(page);
  await page.evaluate(() => {
    const frame = document.getElementById('embed') as HTMLIFrameElement;
    const malformed = [{ racelab: 1, type: 'seek', ms: -5 }, { racelab: 2, type: 'play' }, 'play', null, { racelab: 1, type: 'explode' }];
    for (const m of malformed) frame.contentWindow!.postMessage(m, new URL(frame.src).origin);
  });
  await expect.poll(() => ignored.length).toBe(5);
  await send(page, { type: 'step', by: -1 });
  await expect.poll(async () => (await reports(page, 'cursor')).at(-1)?.ms).toBeLessThan(ended!.ms as number);
});

test('messages from origins the embed does not trust change nothing', async ({ page, baseURL }) => {
  const ignored = ignoredLog(page);
  // No origin named: the embed trusts only its own, and this host is another.
  const src = `${baseURL}/?embed=1&replay=fencing-lease-only.json&t=500`;
  await page.goto(host.page('/unnamed.html', hostHtml(src)));
  const embed = page.frameLocator('#embed');
  await expect(embed.getByLabel('Playhead')).toHaveText(/^500 ms \//);
  await send(page, { type: 'seek', ms: 1500 });
  await expect.poll(() => ignored.filter((l) => l.includes(`from ${host.origin}, not ${new URL(baseURL!).origin}`)).length).toBe(1);
  await expect(embed.getByLabel('Playhead')).toHaveText(/^500 ms \//);
  // Nor does it tell this page anything: its reports go to its own origin only.
  expect(await reports(page)).toEqual([]);

  // The trusted host's page, with a frame of another origin in it that posts to the embed.
  const intruder = stranger.page(
    '/intruder.html',
    `<!doctype html><script>parent.frames[0].postMessage({ racelab: 1, type: 'seek', ms: 1500 }, '*');</script>`,
  );
  await page.goto(
    host.page('/named.html', hostHtml(`${src}&origin=${host.origin}`, `<iframe id="intruder" data-src="${intruder}"></iframe>`)),
  );
  await expect(embed.getByLabel('Playhead')).toHaveText(/^500 ms \//);
  await expect.poll(() => reports(page, 'ready')).toHaveLength(1);
  await page.evaluate(() => {
    const frame = document.getElementById('intruder') as HTMLIFrameElement;
    frame.src = frame.dataset.src!;
  });
  await expect.poll(() => ignored.filter((l) => l.includes(`from ${stranger.origin}, not ${host.origin}`)).length).toBe(1);
  await expect(embed.getByLabel('Playhead')).toHaveText(/^500 ms \//);
  expect((await reports(page, 'cursor')).some((r) => r.ms === 1500)).toBe(false);
  expect((await reports(page, 'cursor')).at(-1)).toMatchObject({ ms: 500 });
  // The trusted page itself is still heard.
  await send(page, { type: 'seek', ms: 900 });
  await expect(embed.getByLabel('Playhead')).toHaveText(/^900 ms \//);
});

test('a link to a moment of a replay shows the playhead there and the lanes as they stood then', async ({ page }) => {
  await page.goto('/?replay=fencing-lease-only.json&t=1830&event=19');
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict.getByRole('status')).toHaveText(/^At 1830 ms \(playhead\)/);
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.locator('.playhead-label')).toHaveText('1830 ms');
  // worker-2 wrote at 1331 ms; worker-1's stale write (2827 ms) has not happened yet.
  await expect(timeline.getByRole('img', { name: /^worker-2 write to document accepted/ })).toBeVisible();
  await expect(timeline.getByRole('img', { name: /^worker-1 write to document accepted/ })).toHaveCount(0);
  await expect(timeline.getByText(/^Selected: worker-2 write to document accepted/)).toBeVisible();
  // The link keeps the moment; a step moves it.
  await expect(page).toHaveURL(/[?&]t=1830(&|$)/);
  await page.keyboard.press('.');
  await expect(page).toHaveURL(/[?&]t=2516(&|$)/);
});

test('a finished live run opens again from its link at a moment, in the page and in an embed', async ({ page, browser, baseURL }) => {
  await openPlayground(page, '/?scenario=fencing&variant=lease-only');
  await choose(page, 'fencing', 'lease-only (broken)');
  expect(await runAndWait(page, 'lease-only')).toMatch(/^FAIL/);
  // The finished run is in the page's link, by id.
  await expect(page).toHaveURL(/[?&]run=[0-9a-f]+/);
  const runId = new URL(page.url()).searchParams.get('run')!;
  // A moment between worker-2's write and worker-1's stale one, as this run timed them.
  const write = (worker: string) =>
    page.getByRole('region', { name: 'Timeline' }).getByRole('img', { name: new RegExp(`^${worker} write to document accepted`) });
  const atMs = async (worker: string) => Number(/ at (\d+) ms$/.exec((await write(worker).getAttribute('aria-label')) ?? '')?.[1]);
  const [early, late] = [await atMs('worker-2'), await atMs('worker-1')];
  expect(late - early).toBeGreaterThan(1000);
  const t = Math.round((early + late) / 2);
  const seq = Number((await write('worker-2').getAttribute('data-mark'))?.replace('mark-', ''));

  // Another reader, another page: the link with a moment shows the run there, its event selected.
  const reader = await browser.newPage();
  await reader.goto(`/?run=${runId}&t=${t}&event=${seq}`);
  await expect(reader.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(new RegExp(`^At ${t} ms \\(playhead\\)`));
  const timeline = reader.getByRole('region', { name: 'Timeline' });
  await expect(timeline.locator('.playhead-label')).toHaveText(`${t} ms`);
  await expect(timeline.getByRole('img', { name: /^worker-2 write to document accepted/ })).toBeVisible();
  await expect(timeline.getByRole('img', { name: /^worker-1 write to document accepted/ })).toHaveCount(0);
  await expect(timeline.getByText(/^Selected: worker-2 write to document accepted/)).toBeVisible();
  // At the end the stale write is there.
  await reader.keyboard.press('Escape');
  await expect(timeline.getByRole('img', { name: /^worker-1 write to document accepted/ })).toBeVisible();
  await reader.close();

  // The same run embedded in the host page, at its moment, telling the host its verdict.
  const post = await browser.newPage();
  await post.goto(host.page('/live.html', hostHtml(`${baseURL}/?embed=1&run=${runId}&t=${t}&origin=${host.origin}`)));
  await expect(post.frameLocator('#embed').getByLabel('Playhead')).toHaveText(new RegExp(`^${t} ms /`));
  await expect.poll(async () => (await reports(post, 'cursor')).at(-1)).toMatchObject({ ms: t, playing: false });
  await send(post, { type: 'seek', ms: 100_000 });
  await expect.poll(() => reports(post, 'verdict')).toMatchObject([{ runId, scenario: 'fencing', variant: 'lease-only', pass: false }]);
  await post.close();
});

for (const [width, height] of [
  [560, 315],
  [1280, 720],
] as const) {
  test(`the embed fills a ${width}×${height} frame without scrolling the page`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/?embed=1&replay=fencing-lease-only.json');
    const headline = page.getByRole('region', { name: 'Verdict' }).getByRole('status');
    await expect(headline).toHaveText(/^FAIL/);
    const size = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      scrollHeight: document.documentElement.scrollHeight,
    }));
    expect(size).toEqual({ scrollWidth: width, scrollHeight: height });
    const inside = async (name: string, box: { x: number; y: number; width: number; height: number } | null) => {
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.y, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(width);
      expect(box!.y + box!.height, name).toBeLessThanOrEqual(height);
    };
    await inside('headline', await headline.boundingBox());
    await inside('timeline', await page.getByRole('region', { name: 'Timeline' }).boundingBox());
    for (const name of ['◀ Step', 'Play', 'Step ▶'])
      await inside(name, await page.getByRole('button', { name, exact: true }).boundingBox());
    // The lanes take most of the frame, and the first worker's lane is in sight.
    const timeline = (await page.getByRole('region', { name: 'Timeline' }).boundingBox())!;
    expect(timeline.height).toBeGreaterThan(height * 0.55);
    await inside('worker-1', await page.getByRole('group', { name: 'worker-1', exact: true }).boundingBox());
    // Nothing but the run: no scenario picker, no code, no explanation.
    await expect(page.getByRole('combobox')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Code' })).toHaveCount(0);
  });
}

test('Export → Embed gives the iframe of the run on screen at its moment, and copies it', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.goto('/?replay=fencing-lease-only.json&t=1830');
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^At 1830 ms/);
  await page.getByText('Export', { exact: true }).click();
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await page.getByLabel('Host page origin (optional, for postMessage)').fill(host.origin);
  const code = page.getByRole('textbox', { name: 'Embed code' });
  await expect(code).toHaveValue(
    `<iframe src="${baseURL}/?embed=1&amp;replay=fencing-lease-only.json&amp;scenario=fencing&amp;variant=lease-only&amp;t=1830&amp;origin=${host.origin}" width="800" height="450" title="racelab: fencing · lease-only (broken)" style="border:0" loading="lazy"></iframe>`,
  );
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.inputValue());

  // The snippet, pasted into the host's page, shows the run at that moment and talks to that page.
  const snippet = await code.inputValue();
  const post = await context.newPage();
  await post.goto(host.page('/pasted.html', `<!doctype html><title>pasted</title>${snippet}`));
  const embed = post.frameLocator('iframe');
  await expect(embed.getByLabel('Playhead')).toHaveText(/^1830 ms \//);
  await expect(embed.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^At 1830 ms/);
});

// Presenting: shortcuts for everything, listed on ?; presenter mode in large type; a light
// and a dark theme; scenario and variant switched and runs started from the keyboard.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { verdictLine, type Recording, type ScenarioManifest } from '@racelab/shared';
import {
  boxOf,
  documentSize,
  expectLanesFit,
  expectNothingScrollsIn,
  expectVerdictsFit,
  textsSmallerThan,
  timelineOf,
  verdictStatus,
  type Box,
} from './layout.js';
import { openPlayground, RUN_TIMEOUT } from './racelab.js';
import { startStaticServer, type StaticServer } from './staticServer.js';

test('? lists the shortcuts; Esc closes the list', async ({ page }) => {
  await openPlayground(page);
  await page.locator('body').press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (const text of [
    'run the selected variant',
    'next scenario',
    'toggle broken ↔ correct variant',
    'pause / resume worker n',
    'step the playhead to the next event',
  ])
    await expect(dialog).toContainText(text);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('presenter mode, themes, and a whole demo from the keyboard', async ({ page }) => {
  await openPlayground(page);
  const body = page.locator('body');
  const scenario = page.getByRole('combobox', { name: 'Scenario' });

  await body.press('p');
  await expect(page.getByRole('button', { name: 'Presenter mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(scenario).toBeHidden(); // the stage only
  const stage = page.getByRole('group', { name: 'On stage' });
  await expect(stage).toBeVisible();
  const size = await page.getByRole('heading', { name: 'Verdict' }).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(size).toBeGreaterThanOrEqual(20);

  // Light theme for a bright room, and back.
  const background = () => page.locator('html').evaluate((el) => getComputedStyle(el).backgroundColor);
  const dark = await background();
  await body.press('t');
  await expect(page.getByRole('button', { name: 'Light theme' })).toHaveAttribute('aria-pressed', 'true');
  expect(await background()).not.toBe(dark);
  await body.press('t');
  expect(await background()).toBe(dark);

  // Next scenario, then back; toggle the variant; run it.
  const before = (await stage.textContent())!;
  await body.press('n');
  await expect(stage).not.toHaveText(before);
  await body.press('Shift+N');
  await expect(stage).toHaveText(before);
  await body.press('v');
  await expect(stage).not.toHaveText(before);
  await body.press('v');
  await expect(stage).toHaveText(before);
  await body.press('r');
  await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('status')).toHaveText(/^(PASS|FAIL)/, { timeout: RUN_TIMEOUT });

  await body.press('p');
  await expect(scenario).toBeVisible();
});

interface Recorded {
  file: string;
  lanes: number;
  verdict: 'pass' | 'fail';
  /** The verdict's lines, as the panel words them ("✓ held …"). */
  lines: string[];
}

/**
 * The shipped recordings (a broken and a correct variant of every scenario in the catalog),
 * each with how many lanes the timeline draws for it (a lane per worker, the holders row when
 * a lease was taken, one per key or row a store held) and the verdict its run ended with:
 * what the page is served, not a list kept here, so a new recording is covered with no edit.
 */
async function recordings(request: APIRequestContext, base: string): Promise<Recorded[]> {
  const index = (await (await request.get(`${base}/recordings/index.json`)).json()) as { file: string }[];
  return Promise.all(
    index.map(async ({ file }) => {
      const recording = (await (await request.get(`${base}/recordings/${file}`)).json()) as Recording;
      const events = recording.events as unknown as { type: string; [k: string]: unknown }[];
      const workers = new Set(events.map((e) => e.workerId).filter((w) => typeof w === 'string'));
      const stores = new Set(
        events
          .filter((e) => e.type === 'key-observed' || e.type === 'row-observed')
          .map((e) => `${e.type} ${String(e.store)} ${String(e.key ?? e.target)}`),
      );
      const holders = events.some((e) => e.type === 'lease-acquired') ? 1 : 0;
      const finished = recording.events.at(-1);
      if (finished?.type !== 'run-finished') throw new Error(`${file} does not end with run-finished`);
      const { verdict, expectations } = finished;
      const lines = expectations.map((e) => {
        const metric = recording.scenario.metrics.find((m) => m.name === e.metric);
        return `${e.held ? '✓ held' : '✗ not held'} ${verdictLine(e, metric)}`;
      });
      return { file, lanes: workers.size + holders + stores.size, verdict, lines };
    }),
  );
}

// Every shipped recording on stage at both sizes, replayed from a link with no server (a
// plain static server of the built page), one after another in one page: each ends at once
// on its last event, with the verdict its run ended with, and opens no socket. Each is opened
// at one size and then resized to the other (alternately, so each size is seen both from a
// fresh load and after a window moves to a projector).
test.describe('presenter mode, every shipped recording', () => {
  let server: StaticServer;
  test.beforeAll(async () => {
    server = await startStaticServer();
  });
  test.afterAll(async () => {
    await server.close();
  });

  const SIZES = [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ];

  test(`at ${SIZES.map((s) => `${s.width}×${s.height}`).join(' and ')}: every lane in sight, nothing scrolls, the timeline the largest thing on screen`, async ({
    page,
    request,
  }) => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    const all = await recordings(request, server.url);
    expect(all.length).toBeGreaterThanOrEqual(20);
    test.setTimeout(30_000 + all.length * 10_000);
    // The boxes of the first recording at each size: every other must have the same.
    const boxesAt = new Map<number, { timeline: Box; verdict: Box }>();
    let namespaces = 0;
    for (const [i, r] of all.entries()) {
      const sizes = i % 2 === 0 ? SIZES : [...SIZES].reverse();
      for (const [j, viewport] of sizes.entries()) {
        const what = `${r.file} at ${viewport.width}×${viewport.height}${j === 0 ? '' : ', resized'}`;
        await page.setViewportSize(viewport);
        if (j === 0) {
          await page.goto(`${server.url}/?replay=${r.file}&presenter=1`);
          // No server is needed, so none is looked for: no socket, no "reconnecting…".
          await expect(page.getByRole('status').filter({ hasText: 'offline: a recorded run, no server needed' })).toBeVisible();
        }
        await expect(verdictStatus(page), what).toHaveText(r.verdict === 'pass' ? /^PASS — / : /^FAIL — /);
        // As expected: no "NOT as expected" warning (nor a run-failed message) in the panel.
        await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('alert')).toHaveCount(0);
        const lines = page.getByRole('list', { name: 'Numbers' }).getByRole('listitem');
        await expect(lines).toHaveCount(r.lines.length);
        for (const [k, line] of r.lines.entries()) await expect(lines.nth(k), what).toContainText(line);
        expect(sockets, `sockets opened by ${r.file}`).toEqual([]);
        const size = await documentSize(page);
        expect(size.height, `${what}: the page's height`).toBeLessThanOrEqual(size.vh);
        expect(size.width, `${what}: the page's width`).toBeLessThanOrEqual(size.vw);
        expect(await expectLanesFit(page), what).toBeGreaterThanOrEqual(r.lanes);
        await expectNothingScrollsIn(timelineOf(page), `${what}: the timeline`);
        await expectVerdictsFit(page);
        // The same boxes whatever the run (and so whether its verdict is there or not).
        const now = { timeline: await boxOf(timelineOf(page)), verdict: await boxOf(page.getByRole('region', { name: 'Verdict' })) };
        expect(now.timeline.height, `${what}: the timeline's share of the height`).toBeGreaterThanOrEqual(0.55 * size.vh);
        expect(now.timeline.width * now.timeline.height).toBeGreaterThan(now.verdict.width * now.verdict.height);
        if (!boxesAt.has(viewport.width)) boxesAt.set(viewport.width, now);
        expect(now, what).toEqual(boxesAt.get(viewport.width));
        // Readable from the back row: no timeline text under 18 px, at either size.
        expect(await textsSmallerThan(timelineOf(page), 18), what).toEqual([]);
        // A store row's key keeps its namespace whole (lock: and fence: rows of one write
        // differ only there), whatever is cut of the rest.
        const cutNamespaces = await timelineOf(page)
          .locator('.key-head')
          .evaluateAll((heads) => heads.filter((h) => h.scrollWidth > h.clientWidth + 1 || h.clientWidth === 0).map((h) => h.textContent));
        expect(cutNamespaces, what).toEqual([]);
        namespaces += await timelineOf(page).locator('.key-head').count();
      }
    }
    expect(namespaces, 'store rows whose key has a namespace').toBeGreaterThan(40);
  });
});

/** The chapter counter on stage, and whether it (and every button of the bar) is shown whole. */
async function stageBarWhole(page: Page): Promise<{ chapter: string; cut: string[] }> {
  return page.getByRole('group', { name: 'On stage' }).evaluate((bar) => {
    const box = bar.getBoundingClientRect();
    const chapter = bar.querySelector('.stage-chapter');
    const cut = [chapter, ...Array.from(bar.querySelectorAll('button'))]
      .filter((el): el is Element => el !== null)
      .filter((el) => {
        const r = el.getBoundingClientRect();
        const clipped = el.scrollWidth > el.clientWidth || r.width === 0 || r.left < box.left || r.right > box.right;
        return clipped || r.right > window.innerWidth;
      })
      .map(
        (el) =>
          `${el.textContent} (${el.scrollWidth} px in ${el.clientWidth}, ${Math.round(el.getBoundingClientRect().right)} of ${window.innerWidth})`,
      );
    return { chapter: chapter?.textContent ?? '', cut };
  });
}

// The chapter counter reads whole on a projector ("chapter 41 of 45: broken: plain-insert"
// was cut to "chapter 41 of 4…" at 1280×720 beside a long title), and so do the bar's
// buttons: every chapter opened from its link (a run's chapter shows its shipped recording;
// one with none cannot be opened without running, and is left out), then a step back from
// the last chapter by keyboard, which runs the chapter before it.
for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${viewport.width}×${viewport.height} the chapter counter and the bar's buttons read whole, in every chapter`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const catalog = (await (await request.get('/api/catalog')).json()) as ScenarioManifest[];
    const shipped = new Set(((await (await request.get('/recordings/index.json')).json()) as { file: string }[]).map((r) => r.file));
    // A talk's chapters, as the stage steps through them: each scenario, its first broken
    // variant's run, its first correct variant's run.
    const chapters = catalog.flatMap((s) => {
      const broken = s.variants.find((v) => !v.correct)!;
      const correct = s.variants.find((v) => v.correct)!;
      return [
        { words: 'the scenario', file: null },
        { words: `broken: ${broken.id}`, file: `${s.id}-${broken.id}.json` },
        { words: `correct: ${correct.id}`, file: `${s.id}-${correct.id}.json` },
      ];
    });
    test.setTimeout(60_000 + chapters.length * 4_000);
    const total = chapters.length;
    const stage = page.getByRole('group', { name: 'On stage' });
    const counter = stage.getByText(/^chapter \d+ of \d+: /);
    let opened = 0;
    for (const [i, { words, file }] of chapters.entries()) {
      if (file && !shipped.has(file)) continue;
      const text = `chapter ${i + 1} of ${total}: ${words}`;
      await page.goto(`/?presenter=1&chapter=${i + 1}`);
      await expect(counter).toHaveText(text);
      if (file) await expect(verdictStatus(page), text).toHaveText(/^(PASS|FAIL) — /);
      expect(await stageBarWhole(page), text).toEqual({ chapter: text, cut: [] });
      opened++;
    }
    expect(opened).toBeGreaterThan(total - 5);

    // From the last chapter, ← steps back to the run before it, which starts: the counter
    // stays whole while it runs and after.
    await page.goto(`/?presenter=1&chapter=${total}`);
    await expect(counter).toHaveText(`chapter ${total} of ${total}: ${chapters[total - 1]!.words}`);
    await page.locator('body').press('ArrowLeft');
    const before = `chapter ${total - 1} of ${total}: ${chapters[total - 2]!.words}`;
    await expect(counter).toHaveText(before);
    expect(await stageBarWhole(page)).toEqual({ chapter: before, cut: [] });
    await expect(verdictStatus(page)).toHaveText(/^(PASS|FAIL) — /, { timeout: RUN_TIMEOUT });
    expect(await stageBarWhole(page)).toEqual({ chapter: before, cut: [] });
  });
}

// Measuring the page as a person sees it: boxes of regions found by role and name, and
// what the document and the viewport span. Used by the stage, first-screen and phone specs.
import { expect, type Locator, type Page } from '@playwright/test';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box!;
}

/** The element lies wholly inside the viewport (no scrolling needed to see all of it). */
export async function expectInsideViewport(page: Page, locator: Locator): Promise<Box> {
  const box = await boxOf(locator);
  const vp = page.viewportSize()!;
  // Half a pixel either way: a box scrolled to the top edge may sit at y = -0.48.
  expect(box.x).toBeGreaterThanOrEqual(-0.5);
  expect(box.y).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width).toBeLessThanOrEqual(vp.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(vp.height + 0.5);
  return box;
}

/** How wide and tall the document is laid out, against the viewport. */
export async function documentSize(page: Page): Promise<{ width: number; height: number; vw: number; vh: number }> {
  return page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
    vw: window.innerWidth,
    vh: window.innerHeight,
  }));
}

export async function expectNoWiderThanViewport(page: Page): Promise<void> {
  const size = await documentSize(page);
  expect(size.width).toBeLessThanOrEqual(size.vw);
}

export const timelineOf = (page: Page) => page.getByRole('region', { name: 'Timeline' });
export const verdictStatus = (page: Page) => page.getByRole('region', { name: 'Verdict' }).getByRole('status');

/**
 * Every lane of the timeline (workers, holders, what the stores held) lies wholly inside
 * the viewport and inside the timeline's own box: nothing scrolls inside the timeline.
 * Returns how many lanes there were.
 */
export async function expectLanesFit(page: Page): Promise<number> {
  const timeline = await boxOf(timelineOf(page));
  const lanes = timelineOf(page).locator('.tl-row[role="group"]');
  const count = await lanes.count();
  for (let i = 0; i < count; i++) {
    const lane = lanes.nth(i);
    const name = await lane.getAttribute('aria-label');
    const box = await expectInsideViewport(page, lane);
    expect(box.y, `${name} below the timeline's top`).toBeGreaterThanOrEqual(timeline.y - 0.5);
    expect(box.y + box.height, `${name} above the timeline's bottom`).toBeLessThanOrEqual(timeline.y + timeline.height + 0.5);
  }
  return count;
}

/** Each verdict box shows all it holds: its content is no taller than the box. */
export async function expectVerdictsFit(page: Page): Promise<void> {
  const boxes = page.getByRole('region', { name: /^Verdict/ });
  const count = await boxes.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const box = boxes.nth(i);
    const { scroll, client, name } = await box.evaluate((el) => ({
      scroll: el.scrollHeight,
      client: el.clientHeight,
      name: el.getAttribute('aria-label') ?? '',
    }));
    expect(scroll, `${name}: content ${scroll} px in a box of ${client} px`).toBeLessThanOrEqual(client);
  }
}

/** Nothing inside the element (nor the element) scrolls: each scroll box shows all it holds. */
export async function expectNothingScrollsIn(locator: Locator, what: string): Promise<void> {
  const scrolled = await locator.evaluate((root) =>
    [root, ...Array.from(root.querySelectorAll<HTMLElement>('*'))]
      .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight)
      .map((e) => `${e.className || e.tagName}: ${e.scrollHeight} px in ${e.clientHeight}`),
  );
  expect(scrolled, `${what} scrolls`).toEqual([]);
}

/** The texts in the element set smaller than `minPx` (the glyphs inside round marks are symbols, not text). */
export async function textsSmallerThan(locator: Locator, minPx: number): Promise<{ text: string; px: number }[]> {
  const sizes = await locator.evaluate((el) => {
    const texts = Array.from(el.querySelectorAll<HTMLElement>('*')).filter(
      (e) =>
        Array.from(e.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '') &&
        e.getClientRects().length > 0,
    );
    return texts
      .filter((e) => !e.closest('.glyph'))
      .map((e) => ({ text: e.textContent.trim().slice(0, 30), px: parseFloat(getComputedStyle(e).fontSize) }));
  });
  expect(sizes.length, 'texts in the element').toBeGreaterThan(10);
  return sizes.filter((s) => s.px < minPx);
}

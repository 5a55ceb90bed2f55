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

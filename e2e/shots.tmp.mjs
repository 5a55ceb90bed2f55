// scratch: screenshots of the page as users see it (not part of the repository)
import { chromium } from '@playwright/test';
const base = process.argv[2];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
async function shot(name, viewport, path, act) {
  const ctx = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await ctx.newPage();
  await page.goto(base + path);
  await page.getByText('connected', { exact: true }).waitFor();
  if (act) await act(page);
  await page.screenshot({ path: `/tmp/shots/${name}.png` });
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  console.log(name, 'scrollWidth', w);
  await ctx.close();
}
const runIt = async (page) => {
  await page.keyboard.press('r');
  await page.getByRole('region', { name: 'Verdict' }).getByRole('status').filter({ hasText: /^(PASS|FAIL)/ }).waitFor({ timeout: 60000 });
  await page.waitForTimeout(800);
};
const which = process.argv[3] ?? 'all';
if (which === 'all' || which === 'a') await shot('1280-dup', { width: 1280, height: 720 }, '/?scenario=duplicate-job', runIt);
if (which === 'all' || which === 'b') await shot('1920-redlock', { width: 1920, height: 1080 }, '/?scenario=redlock', runIt);
if (which === 'all' || which === 'c') await shot('390-fencing', { width: 390, height: 844 }, '/?scenario=fencing', runIt);
if (which === 'all' || which === 'd') await shot('1280-presenter', { width: 1280, height: 720 }, '/?scenario=fencing&presenter=1', runIt);
await browser.close();

// The lock libraries on the page: a library variant run from the page under the fault its
// scorecard cell was seen at, against the real server, gives the cell's numbers and shows
// the library's call as a user writes it; and the
// scorecard view, served with no server at all, holds every lock and fault of
// docs/scorecard.json, replays a cell's run with no socket, and leads back to the matrix.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cellAt, Scorecard, type ScenarioManifest, type EventOf, type Recording } from '@racelab/shared';
import { documentSize } from './layout.js';
import { openPlayground, runAndWait, variantRadioName } from './racelab.js';
import { startStaticServer, type StaticServer } from './staticServer.js';

const card = Scorecard.parse(JSON.parse(readFileSync(new URL('../../docs/scorecard.json', import.meta.url), 'utf8')));
const lockName = (id: string) => card.locks.find((l) => l.id === id)!.name;
const faultTitle = (id: string) => card.faults.find((f) => f.id === id)!.title;

test('a library variant runs from the page under its scorecard fault and gives the cell’s numbers', async ({ page }) => {
  const cell = cellAt(card, 'lib-ioredfour', 'stall-past-lease')!;
  const seenAt = cell.seenAt!;
  // The setup the cell states, through a link (parameters and fault plan as the page takes them).
  const query = new URLSearchParams({ scenario: seenAt.scenario, variant: cell.lock });
  for (const [param, value] of Object.entries(seenAt.params)) query.set(`p.${param}`, String(value));
  query.set(
    'faults',
    seenAt.faults.map((f) => [f.checkpoint, f.target, f.action, ...(f.ms === undefined ? [] : [f.ms])].join(':')).join(','),
  );
  await openPlayground(page, `/?${query.toString()}`);
  // Listed apart, under Libraries in the variant picker: one radio per lock of the scorecard.
  const libraries = page.getByRole('radiogroup', { name: 'Variant' }).getByRole('group', { name: 'Libraries' });
  await expect(libraries.getByRole('radio')).toHaveCount(card.locks.length);
  const name = variantRadioName(cell.lock, true);
  await expect(libraries.getByRole('radio', { name, exact: true })).toBeChecked();
  await runAndWait(page, name);

  const catalog = (await (await page.request.get('/api/catalog')).json()) as ScenarioManifest[];
  const metrics = catalog.find((m) => m.id === seenAt.scenario)!.metrics;
  const numbers = page.getByRole('region', { name: 'Verdict' }).getByRole('list', { name: 'Numbers' });
  for (const metric of ['emailsSent', 'maxConcurrentHolders']) {
    const label = metrics.find((m) => m.name === metric)!.label;
    await expect(numbers).toContainText(`${label}: ${cell.metrics![metric]}`);
  }
  // The code beside it is the library's adapter: its own call, as a user of ioredfour writes it.
  await expect(page.getByRole('region', { name: 'Code' })).toContainText('await locks.acquireLock(key, ttlMs)');

  // The header leads to the scorecard, and the link says so.
  await page.getByRole('button', { name: 'Library scorecard' }).click();
  await expect(page.getByRole('table', { name: 'Lock libraries (rows) under each fault (columns)' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('scorecard')).toBe('1');
});

test.describe('the scorecard view, with no server', () => {
  let server: StaticServer;
  test.beforeAll(async () => {
    server = await startStaticServer();
  });
  test.afterAll(async () => {
    await server.close();
  });

  test('holds every lock and fault, and replays a cell’s run with no socket', async ({ page }) => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${server.url}/?scorecard=1`);
    const table = page.getByRole('table', { name: 'Lock libraries (rows) under each fault (columns)' });
    for (const fault of card.faults)
      await expect(table.getByRole('columnheader', { name: `${fault.title} ${fault.mapping}`, exact: true })).toBeVisible();
    for (const lock of card.locks) {
      // Its name and its version head the row.
      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `${lock.name} ${lock.version}` }) });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole('cell')).toHaveCount(card.faults.length);
    }
    await expect(table.getByRole('rowheader')).toHaveCount(card.locks.length);

    const cell = cellAt(card, 'lib-redlock', 'holder-killed')!;
    const recording = JSON.parse(
      readFileSync(new URL(`../../web/public/recordings/scorecard/${cell.recording}`, import.meta.url), 'utf8'),
    ) as Recording;
    const finished = recording.events.at(-1) as EventOf<'run-finished'>;
    await table.getByRole('button', { name: `Replay ${lockName(cell.lock)} under “${faultTitle(cell.fault)}”` }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await expect(verdict.getByRole('status')).toHaveText(finished.verdict === 'pass' ? /^PASS — / : /^FAIL — /);
    await expect(verdict).toContainText(`${cell.seenAt!.scenario} · ${cell.lock} (correct)`);
    await expect(verdict).toContainText('recorded run');
    expect(new URL(page.url()).searchParams.get('replay')).toBe(`scorecard/${cell.recording}`);

    await page.getByRole('button', { name: '← Back to the scorecard' }).click();
    await expect(table).toBeVisible();
    // The keyboard is back on the cell it left from.
    await expect(table.getByRole('button', { name: `Replay ${lockName(cell.lock)} under “${faultTitle(cell.fault)}”` })).toBeFocused();
    expect(sockets).toEqual([]);
  });

  test('holds the job queues, schedulers and poolers under their faults, and replays a cell’s run', async ({ page }) => {
    const stacks = card.stacks!;
    await page.goto(`${server.url}/?scorecard=1`);
    const table = page.getByRole('table', { name: /^Job queues, schedulers and poolers/ });
    for (const fault of stacks.faults)
      await expect(table.getByRole('columnheader', { name: `${fault.title} ${fault.mapping}`, exact: true })).toBeVisible();
    await expect(table.getByRole('rowheader')).toHaveCount(stacks.rows.length);
    for (const row of stacks.rows)
      await expect(
        table.getByRole('rowheader', { name: `${row.library} ${row.version} ${row.usage} (${row.correct ? 'correct' : 'broken'})` }),
      ).toHaveCount(1);

    const cell = stacks.cells.find((c) => c.row === 'stalled-job-plain-insert' && c.fault === 'stall-past-job-lock')!;
    const row = stacks.rows.find((r) => r.id === cell.row)!;
    const fault = stacks.faults.find((f) => f.id === cell.fault)!;
    const replay = table.getByRole('button', { name: `Replay ${row.library}: ${row.usage} under “${fault.title}”` });
    await replay.click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    // The cell's word and the recorded run's verdict agree: double processing, read from the stores.
    expect(cell.verdict).toBe('duplicate work');
    await expect(verdict.getByRole('status')).toHaveText(/^FAIL — /);
    await expect(verdict).toContainText('Charges: 2 — should be 1');
    expect(new URL(page.url()).searchParams.get('replay')).toBe(`scorecard/${cell.recording}`);
    await page.getByRole('button', { name: '← Back to the scorecard' }).click();
    await expect(replay).toBeFocused();
  });

  test('on a phone the table scrolls in its own box, never the page', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/?scorecard=1`);
    const box = page.getByRole('region', { name: 'Scorecard: locks × faults' });
    await expect(box.getByRole('table')).toBeVisible();
    const size = await documentSize(page);
    expect(size.width).toBeLessThanOrEqual(size.vw);
    const scroll = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth);
  });
});

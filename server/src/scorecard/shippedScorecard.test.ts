// The scorecard the page ships (docs/scorecard.json, built into the page) and its cells'
// recordings (web/public/recordings/scorecard/): both matrices are whole, every cell that ran
// names a recording that is there, of that row's run with that cell's parameters, every cell
// that did not run says why, and the folder holds no recording that no cell names.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cellAt, parseRecording, type CellReading, type EventOf } from '@racelab/shared';
import { readScorecard } from '../docs/scorecardTable.js';
import { STACK_FAULTS } from './stackFaults.js';
import { STACK_LIBRARIES } from './stacks.js';

const folder = fileURLToPath(new URL('../../../web/public/recordings/scorecard/', import.meta.url));
const card = readScorecard();
const stacks = card.stacks!;

/** The cell's recording is in the folder, of `scenario`/`variant`, at the cell's parameters and fault plan. */
function expectRecordingOf(cell: CellReading, where: string, scenario: string, variant: string): void {
  expect(cell.recording, where).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/);
  expect([cell.seenAt?.scenario, cell.seenAt?.variant], where).toEqual([scenario, variant]);
  const parsed = parseRecording(readFileSync(`${folder}${cell.recording}`, 'utf8'));
  if (!parsed.ok) throw new Error(`${where}: ${parsed.error}`);
  expect([parsed.recording.scenario.id, parsed.recording.variant], where).toEqual([scenario, variant]);
  const started = parsed.recording.events.find((e): e is EventOf<'run-started'> => e.type === 'run-started');
  expect(started?.params, where).toMatchObject(cell.seenAt?.params ?? {});
  expect(started?.faults, where).toEqual(cell.seenAt?.faults);
}

/** A cell with no run names no recording and no parameters. */
const ranNothing = (cell: CellReading): boolean => cell.verdict === 'does not apply' || cell.verdict === 'not staged';

describe('the scorecard shipped with the page', () => {
  it('has one cell for every lock under every fault', () => {
    expect(card.locks.length).toBeGreaterThan(0);
    expect(card.faults.length).toBeGreaterThan(0);
    for (const lock of card.locks)
      for (const fault of card.faults) expect(cellAt(card, lock.id, fault.id), `${lock.id} × ${fault.id}`).toBeDefined();
    expect(card.cells).toHaveLength(card.locks.length * card.faults.length);
  });

  it('names, for each lock cell that ran, a recording in its folder of that run', () => {
    const ran = card.cells.filter((cell) => cell.verdict !== 'does not apply');
    for (const cell of card.cells.filter((c) => !ran.includes(c)))
      expect([cell.recording, cell.seenAt], `${cell.lock} × ${cell.fault}`).toEqual([undefined, undefined]);
    expect(ran.length).toBeGreaterThan(0);
    for (const cell of ran) expectRecordingOf(cell, `${cell.lock} × ${cell.fault}`, cell.seenAt?.scenario ?? '', cell.lock);
  });

  it('has, in its second part, one cell for every row under every fault, in the order the scorecard runs them', () => {
    expect([...new Set(stacks.rows.map((r) => r.library))]).toEqual(STACK_LIBRARIES.map((l) => l.library));
    expect(stacks.faults.map((f) => f.id)).toEqual(STACK_FAULTS.map((f) => f.id));
    expect(stacks.cells.map((c) => `${c.row} × ${c.fault}`)).toEqual(
      stacks.rows.flatMap((row) => stacks.faults.map((fault) => `${row.id} × ${fault.id}`)),
    );
  });

  it("names, for each of the second part's cells that ran, a recording of its row's variant, and says why the others did not run", () => {
    for (const row of stacks.rows) {
      const cells = stacks.cells.filter((c) => c.row === row.id);
      const ran = cells.filter((c) => !ranNothing(c));
      expect(ran.length, `${row.id}: a row with no run`).toBeGreaterThan(0);
      for (const cell of ran) expectRecordingOf(cell, `${row.id} × ${cell.fault}`, row.scenario, row.variant);
      for (const cell of cells.filter(ranNothing)) {
        expect([cell.recording, cell.seenAt, cell.metrics], `${row.id} × ${cell.fault}`).toEqual([undefined, undefined, undefined]);
        expect(cell.note.length, `${row.id} × ${cell.fault}`).toBeGreaterThan(20);
      }
    }
  });

  it('ships no recording that no cell names', () => {
    const named = new Set([...card.cells, ...stacks.cells].flatMap((c) => (c.recording ? [c.recording] : [])));
    expect(readdirSync(folder).filter((f) => !named.has(f))).toEqual([]);
  });
});

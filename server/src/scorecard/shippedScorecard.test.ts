// The scorecard the page ships (docs/scorecard.json, built into the page) and its cells'
// recordings (web/public/recordings/scorecard/): the matrix is whole, every cell that ran
// names a recording that is there, of that lock's run with that cell's parameters, and the
// folder holds no recording that no cell names.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cellAt, parseRecording, type EventOf } from '@racelab/shared';
import { readScorecard } from '../docs/scorecardTable.js';

const folder = fileURLToPath(new URL('../../../web/public/recordings/scorecard/', import.meta.url));
const card = readScorecard();

describe('the scorecard shipped with the page', () => {
  it('has one cell for every lock under every fault', () => {
    expect(card.locks.length).toBeGreaterThan(0);
    expect(card.faults.length).toBeGreaterThan(0);
    for (const lock of card.locks)
      for (const fault of card.faults) expect(cellAt(card, lock.id, fault.id), `${lock.id} × ${fault.id}`).toBeDefined();
    expect(card.cells).toHaveLength(card.locks.length * card.faults.length);
  });

  it('names, for each cell that ran, a recording in its folder of that run', () => {
    const ran = card.cells.filter((cell) => cell.verdict !== 'does not apply');
    // A cell that does not apply ran nothing: it names no recording and no parameters.
    for (const cell of card.cells.filter((c) => !ran.includes(c)))
      expect([cell.recording, cell.seenAt], `${cell.lock} × ${cell.fault}`).toEqual([undefined, undefined]);
    expect(ran.length).toBeGreaterThan(0);
    for (const cell of ran) {
      const where = `${cell.lock} × ${cell.fault}`;
      expect(cell.recording, where).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/);
      const parsed = parseRecording(readFileSync(`${folder}${cell.recording}`, 'utf8'));
      if (!parsed.ok) throw new Error(`${where}: ${parsed.error}`);
      expect([parsed.recording.scenario.id, parsed.recording.variant], where).toEqual([cell.seenAt?.scenario, cell.lock]);
      const started = parsed.recording.events.find((e): e is EventOf<'run-started'> => e.type === 'run-started');
      expect(started?.params, where).toMatchObject(cell.seenAt?.params ?? {});
      expect(started?.faults, where).toEqual(cell.seenAt?.faults);
    }
  });

  it('ships no recording that no cell names', () => {
    const named = new Set(card.cells.flatMap((c) => (c.recording ? [c.recording] : [])));
    expect(readdirSync(folder).filter((f) => !named.has(f))).toEqual([]);
  });
});

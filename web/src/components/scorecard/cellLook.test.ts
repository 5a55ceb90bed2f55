import { describe, expect, it } from 'vitest';
import type { ScorecardCell } from '@racelab/shared';
import shipped from '../../../public/recordings/index.json';
import { cellLook, FAIR_WORDS, seenAtWords, WHY_LEASES_NEED_FENCING as WHY } from './cellLook.js';

const cell = (over: Partial<ScorecardCell>): ScorecardCell => ({
  fault: 'stall-past-lease',
  lock: 'lib-x',
  verdict: 'correct',
  note: '',
  ...over,
});

describe('a scorecard cell in words', () => {
  it('gives each verdict its own icon, not colour alone, and the fair words only to what every lease gives', () => {
    const looks = [
      cellLook(cell({ verdict: 'correct' })),
      cellLook(cell({ verdict: 'duplicate work', byDesign: true })),
      cellLook(cell({ verdict: 'stuck lock' })),
      cellLook(cell({ verdict: 'does not apply' })),
    ];
    expect(looks.map((l) => [l.tone, l.icon])).toEqual([
      ['correct', 'check'],
      ['by-design', 'warning'],
      ['failed', 'cross'],
      ['not-applicable', 'ban'],
    ]);
    expect(looks[1]).toMatchObject({ words: 'duplicate work', fair: `as with any lease: a lease ${FAIR_WORDS}` });
    expect(looks.filter((l) => l.fair)).toHaveLength(1);
    expect(cellLook(cell({ verdict: 'stale write accepted', byDesign: true }))).toMatchObject({
      words: 'stale write accepted',
      fair: `no fence: ${FAIR_WORDS}`,
    });
    // The same word without byDesign is a fault of the lock: never softened.
    expect(cellLook(cell({ verdict: 'duplicate work' }))).toEqual({ tone: 'failed', icon: 'cross', words: 'duplicate work' });
  });

  it('states the parameters and the fault plan it was seen at', () => {
    const seenAt = {
      scenario: 'duplicate-job',
      variant: 'lib-x',
      params: { workers: 3, arrival: 'late', offsetsMs: [0, 600] },
      faults: [{ checkpoint: 'working', target: 'worker-1', action: 'stall' as const, ms: 2500 }],
    };
    expect(seenAtWords(cell({ seenAt }))).toBe('workers 3 · arrival late · offsetsMs 0,600; worker-1 stalls 2500 ms (SIGSTOP) at working');
    expect(seenAtWords(cell({}))).toBeNull();
  });
});

describe('the fair words’ link', () => {
  it('names a recording the page ships, of the scenario and variant it names', () => {
    expect(WHY.recording).toBe(`${WHY.scenario}-${WHY.variant}.json`);
    expect(shipped.map((entry) => entry.file)).toContain(WHY.recording);
  });
});

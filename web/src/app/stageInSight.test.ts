import { describe, expect, it } from 'vitest';
import { bringsStageIntoSight } from './stageInSight.js';

describe('bringsStageIntoSight', () => {
  it('scrolls when a run is asked for with the controls above the stage', () => {
    expect(bringsStageIntoSight(0, 1, () => true)).toBe(true);
    expect(bringsStageIntoSight(0, 2, () => true)).toBe(true); // a compare: two at once
  });

  it('leaves the page alone beside the stage, and while a run is already pending', () => {
    expect(bringsStageIntoSight(0, 1, () => false)).toBe(false);
    expect(bringsStageIntoSight(1, 1, () => true)).toBe(false);
    expect(bringsStageIntoSight(1, 0, () => true)).toBe(false);
  });

  it('asks for the layout only when a run has just been asked for, not at every change of the store', () => {
    let asked = 0;
    const stacked = () => {
      asked++;
      return true;
    };
    bringsStageIntoSight(1, 1, stacked); // a live run's batch of events
    bringsStageIntoSight(0, 0, stacked);
    bringsStageIntoSight(1, 0, stacked);
    expect(asked).toBe(0);
    bringsStageIntoSight(0, 1, stacked);
    expect(asked).toBe(1);
  });
});

// A test file's playground for one scenario: opened before the file's tests and closed after
// them, with the plays a scenario test makes. Every scenario test file used to open and close
// its own the same way.
import { afterAll, beforeAll } from 'vitest';
import type { FaultRule } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground, play, type Played } from './testPlayground.js';

export interface ScenarioUnderTest {
  /** The file's playground; open from its beforeAll on. */
  readonly playground: Playground;
  /** Plays a variant at the given parameters (the scenario's defaults otherwise) and, when given, a fault plan. */
  run(variant: string, params?: Record<string, unknown>, faults?: FaultRule[]): Promise<Played>;
  /** Plays one of the scenario's near-miss mutants. */
  mutant(id: string, params?: Record<string, unknown>): Promise<Played>;
}

/** Opens a playground for the calling test file and plays `scenario`'s variants on it. */
export function scenarioUnderTest(scenario: string): ScenarioUnderTest {
  let opened: Playground | undefined;
  beforeAll(async () => {
    opened = await openTestPlayground();
  });
  afterAll(async () => {
    await opened?.close();
  });
  const playground = (): Playground => {
    if (!opened) throw new Error('the playground opens in the test file’s beforeAll');
    return opened;
  };
  return {
    get playground() {
      return playground();
    },
    run: (variant, params = {}, faults) => play(playground(), scenario, variant, params, faults),
    mutant: (id, params = {}) => play(playground(), scenario, id, params, undefined, { mutants: true }),
  };
}

// A live run's log grows a batch at a time, and the folds (leases, lanes) carry on from the
// last version instead of starting over (summary, leases, lanes, code steps): each version must equal a fold of the whole log
// from scratch, and no later version may change a value already handed out.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { deadHolderRun } from './fixtures/deadHolderRun.js';
import { recorded } from './fixtures/recorded/index.js';
import { tokenLuaRun } from './fixtures/tokenLuaRun.js';
import { deriveLanes } from './lanes.js';
import { deriveStepTimeline } from './codeSteps.js';
import { duplicateJobManifest } from './fixtures/manifest.js';
import { deriveLeases } from './leases.js';
import { foldOnLog } from './memo.js';
import { runSummary } from './runSummary.js';
import { syntheticRun } from './synthetic.js';

const logs: [string, RunEvent[]][] = [
  ['blind-del fixture', blindDelRun()],
  ['dead holder fixture', deadHolderRun()],
  ['token-lua fixture', tokenLuaRun()],
  ...Object.entries(recorded).map(([variant, events]): [string, RunEvent[]] => [`recorded ${variant}`, events]),
  ['synthetic, 1,000 events', syntheticRun({ events: 1000, workers: 4 })],
];

const blindDel = duplicateJobManifest.variants.find((v) => v.id === 'blind-del')!;
/** Maps as entries, so that a snapshot sees their contents. */
const snapshot = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (v instanceof Map ? [...v] : v));

/** Fresh objects: a fold of these shares nothing with the growing log's. */
const scratch = (events: RunEvent[]) => deriveBoth(structuredClone(events));
const deriveBoth = (events: readonly RunEvent[]) => ({
  summary: runSummary(events),
  leases: deriveLeases(events),
  lanes: deriveLanes(events),
  steps: deriveStepTimeline(events, blindDel),
});

describe('folds of a growing log', () => {
  it.each(logs)('%s: every version, appended in batches as the store does, equals a fold from scratch', (_name, all) => {
    let log: RunEvent[] = [];
    const handedOut: { value: ReturnType<typeof deriveBoth>; json: string }[] = [];
    for (let n = 0; n < all.length;) {
      const batch = 1 + ((n * 7) % 13); // uneven batches, 1 to 13 events
      log = [...log, ...all.slice(n, n + batch)];
      n += batch;
      const value = deriveBoth(log);
      expect(value).toEqual(scratch(log));
      handedOut.push({ value, json: snapshot(value) });
    }
    for (const { value, json } of handedOut) expect(snapshot(value)).toBe(json);
  });

  it('a log whose new events come out of order is folded again from its start', () => {
    const all = blindDelRun();
    const head = all.slice(0, 10);
    deriveBoth(head);
    // A resubscribe can bring events the page had, and later ones before earlier ones.
    const shuffled = [...head, all[12]!, all[10]!, all[11]!, ...all.slice(13)];
    expect(deriveBoth(shuffled)).toEqual(scratch(all));
  });
});

describe('foldOnLog', () => {
  it('folds a log again from its start after a step threw half way through a version', () => {
    let failOnce = true;
    const count = foldOnLog<{ n: number }, number>({
      init: () => ({ n: 0 }),
      step(state, e) {
        if (e.seq === 5 && failOnce) {
          failOnce = false;
          throw new Error('a step failed');
        }
        state.n++;
      },
      finish: (state) => state.n,
    });
    const all = blindDelRun();
    const head = all.slice(0, 4);
    expect(count(head)).toBe(4);
    expect(() => count([...head, ...all.slice(4, 8)])).toThrow('a step failed');
    expect(count([...head, ...all.slice(4, 8)])).toBe(8);
  });
});

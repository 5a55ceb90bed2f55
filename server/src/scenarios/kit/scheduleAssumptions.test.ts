// The assumptions read from a played schedule: each broken by the order or fault it names,
// and kept by the order the choreography stages.
import { describe, expect, it } from 'vitest';
import type { RunEvent, ScheduleChoice } from '@racelab/shared';
import { brokenAssumption } from '../../explore/assumptions.js';
import type { Assumption, PlayedFacts } from '../types.js';
import { ARRIVE_TOGETHER, EVERY_WORKER_FINISHES, HOLDER_LIVES, LEASE_OUTLASTS_THE_WORK } from './scheduleAssumptions.js';

type Body = { type: string; workerId: string } & Record<string, unknown>;
const played = (bodies: Body[], choices: ScheduleChoice[] = []): PlayedFacts => ({
  choices,
  trace: [],
  events: bodies.map((b, seq) => ({ seq, atMs: seq, ...b }) as unknown as RunEvent),
});
/** Whether the schedule broke the assumption, as the explorer asks it. */
const breaks = (assumption: Assumption, facts: PlayedFacts): boolean => brokenAssumption([assumption], facts) !== undefined;
const requested = (workerId: string): Body => ({ type: 'lease-requested', workerId, key: 'lock' });
const acquired = (workerId: string): Body => ({ type: 'lease-acquired', workerId, key: 'lock', ttlMs: 1000 });
const released = (workerId: string): Body => ({ type: 'lease-released', workerId, key: 'lock', deleted: 1 });

describe('assumptions a schedule may break', () => {
  it('the containers arrive together: broken when one takes the lock after another released it', () => {
    const together = [requested('worker-1'), requested('worker-2'), acquired('worker-1'), released('worker-1')];
    expect(breaks(ARRIVE_TOGETHER, played(together))).toBe(false);
    // worker-2 asked while worker-1 held the lock, and took it once worker-1 had released it.
    const late = [requested('worker-1'), acquired('worker-1'), requested('worker-2'), released('worker-1'), acquired('worker-2')];
    expect(breaks(ARRIVE_TOGETHER, played(late))).toBe(true);
    // Its own release, then its own lock again, is no late arrival of another.
    expect(breaks(ARRIVE_TOGETHER, played([acquired('worker-1'), released('worker-1'), acquired('worker-1')]))).toBe(false);
  });

  it('the lease outlasts the work: broken by a schedule that lets a lease run out', () => {
    expect(breaks(LEASE_OUTLASTS_THE_WORK, played([], [{ worker: 'worker-1' }, { worker: 'worker-2', kill: true }]))).toBe(false);
    expect(breaks(LEASE_OUTLASTS_THE_WORK, played([], [{ worker: 'worker-1' }, { worker: 'worker-2', expire: 'lock' }]))).toBe(true);
  });

  it('the holder lives to release: broken by killing a worker that holds a lease, not one that does not', () => {
    const events = [requested('worker-1'), requested('worker-2'), acquired('worker-1')];
    expect(breaks(HOLDER_LIVES, played(events, [{ worker: 'worker-2', kill: true }]))).toBe(false);
    expect(breaks(HOLDER_LIVES, played(events, [{ worker: 'worker-1', kill: true }]))).toBe(true);
    expect(breaks(HOLDER_LIVES, played([...events, released('worker-1')], [{ worker: 'worker-1', kill: true }]))).toBe(false);
  });

  it("the holder lives to release: broken too by killing a worker after its lock's acquire call, before it said it had the lock", () => {
    const call = (worker: string, c: 'acquire' | 'release') => ({
      waiting: [{ worker, step: { kind: 'lock' as const, call: c, key: 'lock' } }],
      choice: { worker },
    });
    const kill = { worker: 'worker-1', kill: true as const };
    const facts = (trace: PlayedFacts['trace']): PlayedFacts => ({ choices: [kill], trace, events: [] });
    expect(breaks(HOLDER_LIVES, facts([call('worker-1', 'acquire')]))).toBe(true);
    expect(breaks(HOLDER_LIVES, facts([call('worker-1', 'acquire'), call('worker-1', 'release')]))).toBe(false);
    expect(breaks(HOLDER_LIVES, facts([call('worker-2', 'acquire')]))).toBe(false);
  });

  it('every worker finishes: broken by any kill', () => {
    const finishes = EVERY_WORKER_FINISHES('every admin lives to finish its sale');
    expect(breaks(finishes, played([], [{ worker: 'admin-1' }]))).toBe(false);
    expect(breaks(finishes, played([], [{ worker: 'admin-2', kill: true }]))).toBe(true);
  });
});

// The assumptions read from a played schedule: each broken by the order or fault it names,
// and kept by the order the choreography stages.
import { describe, expect, it } from 'vitest';
import type { RunEvent, ScheduleChoice } from '@racelab/shared';
import type { PlayedFacts } from '../types.js';
import { ARRIVE_TOGETHER, HOLDER_LIVES, LEASE_OUTLASTS_THE_WORK, NEWER_HOLDER_WRITES_FIRST } from './scheduleAssumptions.js';

type Body = { type: string; workerId: string } & Record<string, unknown>;
const played = (bodies: Body[], choices: ScheduleChoice[] = []): PlayedFacts => ({
  choices,
  trace: [],
  events: bodies.map((b, seq) => ({ seq, atMs: seq, ...b }) as unknown as RunEvent),
});
const requested = (workerId: string): Body => ({ type: 'lease-requested', workerId, key: 'lock' });
const acquired = (workerId: string, fence?: number): Body => ({ type: 'lease-acquired', workerId, key: 'lock', ttlMs: 1000, fence });
const released = (workerId: string): Body => ({ type: 'lease-released', workerId, key: 'lock', deleted: 1 });
const wrote = (workerId: string, fence: number): Body => ({ type: 'write-accepted', workerId, target: 'document', value: 'x', fence });

describe('assumptions a schedule may break', () => {
  it('the containers arrive together: broken when one takes the lock after another released it', () => {
    const together = [requested('worker-1'), requested('worker-2'), acquired('worker-1'), released('worker-1')];
    expect(ARRIVE_TOGETHER.brokenBy(played(together))).toBe(false);
    // worker-2 asked while worker-1 held the lock, and took it once worker-1 had released it.
    const late = [requested('worker-1'), acquired('worker-1'), requested('worker-2'), released('worker-1'), acquired('worker-2')];
    expect(ARRIVE_TOGETHER.brokenBy(played(late))).toBe(true);
    // Its own release, then its own lock again, is no late arrival of another.
    expect(ARRIVE_TOGETHER.brokenBy(played([acquired('worker-1'), released('worker-1'), acquired('worker-1')]))).toBe(false);
  });

  it('the lease outlasts the work: broken by a schedule that lets a lease run out', () => {
    expect(LEASE_OUTLASTS_THE_WORK.brokenBy(played([], [{ worker: 'worker-1' }, { worker: 'worker-2', kill: true }]))).toBe(false);
    expect(LEASE_OUTLASTS_THE_WORK.brokenBy(played([], [{ worker: 'worker-1' }, { worker: 'worker-2', expire: 'lock' }]))).toBe(true);
  });

  it('the holder lives to release: broken by killing a worker that holds a lease, not one that does not', () => {
    const events = [requested('worker-1'), requested('worker-2'), acquired('worker-1')];
    expect(HOLDER_LIVES.brokenBy(played(events, [{ worker: 'worker-2', kill: true }]))).toBe(false);
    expect(HOLDER_LIVES.brokenBy(played(events, [{ worker: 'worker-1', kill: true }]))).toBe(true);
    expect(HOLDER_LIVES.brokenBy(played([...events, released('worker-1')], [{ worker: 'worker-1', kill: true }]))).toBe(false);
  });

  it('the newer holder writes first: broken by an older fence writing while a newer holder has not', () => {
    const staged = [acquired('worker-1', 1), acquired('worker-2', 2), wrote('worker-2', 2), wrote('worker-1', 1)];
    expect(NEWER_HOLDER_WRITES_FIRST.brokenBy(played(staged))).toBe(false);
    const older = [acquired('worker-1', 1), acquired('worker-2', 2), wrote('worker-1', 1), wrote('worker-2', 2)];
    expect(NEWER_HOLDER_WRITES_FIRST.brokenBy(played(older))).toBe(true);
    // worker-1 wrote before any newer grant: nothing to break.
    expect(NEWER_HOLDER_WRITES_FIRST.brokenBy(played([acquired('worker-1', 1), wrote('worker-1', 1), acquired('worker-2', 2)]))).toBe(
      false,
    );
  });
});

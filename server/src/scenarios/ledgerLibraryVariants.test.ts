// Every library variant of the lease-handover labs, end to end on the real stores: the
// library's own value is matched to its holder (two holders at once, not three: worker-2's
// write is not stale), a stale write lands without a fence and is refused by the row with
// the library's fence; and a renewing library keeps its lease through long work once its
// event loop is free again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_LOCKS } from '../locks/lockModules.js';
import type { Playground } from '../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../testing/testPlayground.js';

let playground: Playground;
beforeAll(async () => {
  playground = await openTestPlayground(2);
});
afterAll(() => playground.close());

const inRedis = LIBRARY_LOCKS.filter((m) => m.redisKey('lock') !== null);

describe('fencing, with each library', () => {
  it.each(inRedis.map((m) => [m.id, m.fences ? "the row refuses it by the lock's fence" : "it lands over worker-2's", m.fences] as const))(
    '%s: worker-1 is stopped past its lease and writes: %s',
    async (id, _outcome, fences) => {
      const { metrics, verdict, events } = await play(playground, 'fencing', id);
      expect(metrics).toMatchObject(
        fences
          ? { maxConcurrentHolders: 2, staleWritesAccepted: 0, staleWritesRejected: 1, finalWriter: 'worker-2', finalFence: 2 }
          : { maxConcurrentHolders: 2, staleWritesAccepted: 1, staleWritesRejected: 0, finalWriter: 'worker-1' },
      );
      expect(verdict).toBe(fences ? 'pass' : 'fail');
      // The grants the server saw are the values the library stored, each filed by its holder.
      const grants = eventsOf(events, 'lease-acquired');
      const tokens = grants.map((e) => e.token);
      expect(new Set(tokens).size).toBe(2);
      expect(eventsOf(events, 'key-observed').map((e) => e.value)).toEqual(expect.arrayContaining(tokens));
      // A lock that fences gives each grant its number; the others give none.
      expect(grants.map((e) => e.fence)).toEqual(fences ? [1, 2] : [undefined, undefined]);
    },
    30_000,
  );

  it('has no variant for a lock without an expiry (advisory-lock never passes on)', () => {
    const fencing = playground.catalog.manifests.find((m) => m.id === 'fencing')!;
    expect(fencing.variants.map((v) => v.id)).not.toContain('lib-advisory-lock');
    expect(fencing.variants.filter((v) => v.library).length).toBe(inRedis.length);
  });
});

describe('event-loop-block, with a renewing library', () => {
  it.each(inRedis.filter((m) => m.renews).map((m) => [m.id] as const))(
    '%s: a block longer than the lease starves the renewal; a short one does not',
    async (id) => {
      const starved = await play(playground, 'event-loop-block', id);
      expect(starved.metrics).toMatchObject({ staleWritesAccepted: 1, finalWriter: 'worker-1' });
      // Block 0.5 s, then 2 s of work on a 2 s lease: only the library's renewal keeps the lease.
      const renewed = await play(playground, 'event-loop-block', id, { leaseMs: 2000, blockMs: 500, workMs: 2000 });
      expect(renewed.metrics).toMatchObject({ maxConcurrentHolders: 1, staleWritesAccepted: 0, finalWriter: 'worker-2' });
      expect(renewed.verdict).toBe('pass');
    },
    40_000,
  );
});

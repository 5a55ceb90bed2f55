import { describe, expect, it } from 'vitest';
import { blindDelRun } from './fixtures/blindDelRun.js';
import { LogBuilder } from './fixtures/build.js';
import { deadHolderRun } from './fixtures/deadHolderRun.js';
import { recorded } from './fixtures/recorded/index.js';
import { tokenLuaRun } from './fixtures/tokenLuaRun.js';
import { deriveStory, joinWords } from './story.js';
import { truthOf } from './truth.js';

const texts = (events: Parameters<typeof deriveStory>[0]) => deriveStory(events).map((l) => l.text);

function fencingRun(fenced: boolean) {
  const b = new LogBuilder()
    .at(0, null, { type: 'run-started', scenario: 'fencing', variant: 'x', correct: fenced, params: {}, workers: ['worker-1', 'worker-2'] })
    .at(60, 'worker-1', { type: 'lease-acquired', key: 'lock:document', ttlMs: 1000, token: 't1', fence: 1 })
    .at(70, 'worker-1', { type: 'process-paused', plannedMs: 2500 })
    .at(1068, 'worker-2', { type: 'lease-acquired', key: 'lock:document', ttlMs: 1000, token: 't2', fence: 2 })
    .at(1384, 'worker-2', { type: 'write-accepted', target: 'document', value: 'draft by worker-2', fence: 2 })
    .at(1388, 'worker-2', { type: 'lease-released', key: 'lock:document', deleted: 1 })
    .at(2574, 'worker-1', { type: 'process-resumed' });
  if (fenced)
    b.at(2883, 'worker-1', {
      type: 'write-rejected',
      target: 'document',
      value: 'draft by worker-1',
      fence: 1,
      reason: 'the row holds a newer fence',
    });
  else b.at(2883, 'worker-1', { type: 'write-accepted', target: 'document', value: 'draft by worker-1', fence: 1 });
  b.at(2884, 'worker-1', { type: 'lease-released', key: 'lock:document', deleted: 0 }).at(2899, null, {
    type: 'row-observed',
    target: 'document',
    value: fenced ? 'worker-2 · fence 2' : 'worker-1 · fence 1',
  });
  return b.build();
}

describe('deriveStory', () => {
  it('tells a stale fenced write, refused or landed', () => {
    expect(texts(fencingRun(true))).toContain(
      'worker-1 wrote document with fence 1 after worker-2 wrote with fence 2; the row refused it — the stale write was stopped.',
    );
    expect(texts(fencingRun(false))).toContain(
      'worker-1 wrote document with fence 1 after worker-2 wrote with fence 2; the row took it — the stale write landed.',
    );
    expect(texts(fencingRun(false)).at(-1)).toBe('At the end, PostgreSQL held document = worker-1 · fence 1.');
  });

  it('says whose lease ran out, why, and who overlapped', () => {
    const t = texts(fencingRun(false));
    expect(t).toContain(
      "worker-1's lease on lock:document expired at 1060 ms while its process was stalled; it went on as if it held it until 2884 ms.",
    );
    expect(t).toContain(
      'worker-1 and worker-2 both believed they held lock:document from 1068 ms to 1388 ms: 2 workers at once — the lock said 1.',
    );
  });

  it('says a lease ran out while its release was under way when the worker did nothing else', () => {
    // A library's release that waits for nodes that never answer: the write is done, and the
    // lease runs out before the release comes back.
    const run = (writeAtMs: number) =>
      new LogBuilder()
        .at(0, null, { type: 'run-started', scenario: 'redlock', variant: 'x', correct: true, params: {}, workers: ['worker-2'] })
        .at(10, 'worker-2', { type: 'lease-acquired', key: 'mutex:lock', ttlMs: 750, token: 't2', fromMs: 0 })
        .at(writeAtMs, 'worker-2', { type: 'write-accepted', target: 'document', value: 'by worker-2', fence: 0 })
        .at(790, 'worker-2', { type: 'lease-released', key: 'mutex:lock', deleted: 1 })
        .build();
    expect(texts(run(700))).toContain(
      "worker-2's lease on mutex:lock expired at 750 ms while its release was under way; it went on as if it held it until 790 ms.",
    );
    // A write after the lease ran out: it was still working.
    expect(texts(run(770))).toContain(
      "worker-2's lease on mutex:lock expired at 750 ms while it was still working; it went on as if it held it until 790 ms.",
    );
  });

  it('tells a blind DEL and the writes without a valid lease', () => {
    const t = texts(blindDelRun());
    expect(t).toContain(
      "worker-2's lock on lock:nightly-report was deleted by worker-1 at 803 ms; it went on as if it held it until 1000 ms.",
    );
    expect(t).toContain('worker-1 wrote email at 800 ms without a valid lease on lock:nightly-report; the write landed.');
  });

  it('tells a lost update from the reads and writes, as the verdict counted it', () => {
    const run = (verdict?: 'pass' | 'fail') => {
      const b = new LogBuilder()
        .at(0, null, {
          type: 'run-started',
          scenario: 'lost-update',
          variant: 'rmw',
          correct: false,
          params: {},
          workers: ['admin-1', 'admin-2'],
        })
        .at(10, 'admin-1', { type: 'value-read', target: 'stock', value: 10 })
        .at(14, 'admin-2', { type: 'value-read', target: 'stock', value: 10 })
        .at(219, 'admin-1', { type: 'write-accepted', target: 'stock', value: 7 })
        .at(426, 'admin-2', { type: 'write-accepted', target: 'stock', value: verdict === 'pass' ? 5 : 8 });
      if (verdict) b.at(440, null, { type: 'run-finished', metrics: {}, expectations: [], verdict });
      return b.build();
    };
    expect(texts(run('fail'))).toEqual([
      "admin-2 wrote stock = 8 from its read of 10, after admin-1 had written stock = 7: admin-1's write was lost.",
    ]);
    expect(texts(run('pass'))).toEqual([
      "admin-2 read stock = 10 before admin-1 wrote stock = 7, then wrote stock = 5; the stores' count came out right, so admin-1's write was not lost.",
    ]);
    expect(texts(run())).toEqual([
      "admin-2 wrote stock = 8 after admin-1 had written stock = 7 since its read of 10: admin-1's write may be lost — the verdict will tell.",
    ]);
  });

  it('tells a killed holder whose lock never expires, and who was turned away', () => {
    const t = texts(deadHolderRun());
    expect(t[0]).toBe(
      'worker-1 was killed (SIGKILL) at 10 ms holding lock:nightly-report, which has no expiry: no one can take it any more.',
    );
    expect(t).toContain('worker-2 and worker-3 found the lock taken and did not do the job.');
  });

  it('says so when one holder at a time held', () => {
    const t = texts(recorded['token-lua']!);
    expect(t).toContain('At no time did two workers believe they held the same lock.');
    expect(texts(tokenLuaRun())).toContain(
      'worker-1 wrote email with fence 1 after worker-2 wrote with fence 2; the row refused it — the stale write was stopped.',
    );
  });

  it('joins names in words', () => {
    expect(joinWords(['a'])).toBe('a');
    expect(joinWords(['a', 'b', 'c'])).toBe('a, b and c');
  });
});

describe('truth beside belief', () => {
  it('gives each worker the stretches Redis held the lock for it', () => {
    const t = truthOf(blindDelRun(), 'worker-2');
    expect(t.map((s) => [s.startMs, s.endMs, s.key])).toEqual([[625, 825, 'lock:nightly-report']]);
    expect(t[0]!.label).toBe('Redis held lock:nightly-report for worker-2 from 625 ms to 825 ms');
    expect(truthOf(deadHolderRun(), 'worker-1')[0]!.noExpiry).toBe(true);
    expect(truthOf(blindDelRun(), 'nobody')).toEqual([]);
  });
});

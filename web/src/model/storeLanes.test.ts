import { describe, expect, it } from 'vitest';
import { blindDelRun, LOCK } from './fixtures/blindDelRun.js';
import { LogBuilder } from './fixtures/build.js';
import { deadHolderRun } from './fixtures/deadHolderRun.js';
import { recorded } from './fixtures/recorded/index.js';
import { tokenLuaRun } from './fixtures/tokenLuaRun.js';
import { deriveStory } from './story.js';
import { deriveStoreLanes, holderOf, segmentText, workersIn } from './storeLanes.js';

describe('deriveStoreLanes', () => {
  it('puts what a lab holds under the store that holds it, between Redis and PostgreSQL', () => {
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1'] })
      .at(1, null, { type: 'row-observed', target: 'document', value: 'nobody' }) // recorded before stores were named
      .at(2, null, { type: 'row-observed', store: 'Token provider', target: 'refresh calls', value: '0' })
      .at(3, null, { type: 'key-observed', key: 'lock', value: null, pttlMs: -2 })
      .at(4, null, { type: 'row-observed', store: 'Redis node', target: 'primary', value: 'primary · no lock key' })
      .at(50, null, { type: 'row-observed', store: 'Token provider', target: 'refresh calls', value: '3' })
      .at(60, null, { type: 'row-observed', store: 'Redis node', target: 'primary', value: null })
      .at(61, null, { type: 'row-observed', store: 'Redis node', target: 'node-1 lock', value: 'free' })
      .at(62, null, { type: 'row-observed', store: 'Redis node', target: 'node-2 lock', value: 'free' })
      .at(70, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'fail' })
      .build();
    const lanes = deriveStoreLanes(events);
    expect(lanes.map((l) => `${l.store} ${l.name}`)).toEqual([
      'Redis lock',
      'Token provider refresh calls',
      'Redis node primary',
      'Redis node node-1 lock',
      'Redis node node-2 lock',
      'PostgreSQL document',
    ]);
    expect(lanes[2]!.segments.at(-1)!.label).toBe('Redis node primary: no value from 60 ms to the end of the run (70 ms)');
    const story = deriveStory(events).map((l) => l.text);
    expect(story).toContain('At the end: Token provider · refresh calls = 3.');
    expect(story).toContain('At the end: Redis node · node-1 lock and node-2 lock = free.');
    expect(story).toContain('At the end, PostgreSQL held document = nobody.');
    expect(story.some((t) => t.includes('PostgreSQL held refresh calls') || t.includes('PostgreSQL held primary'))).toBe(false);
  });

  it('groups Redis observations into segments of one value', () => {
    const [lane] = deriveStoreLanes(blindDelRun());
    expect([lane!.store, lane!.name]).toEqual(['Redis', LOCK]);
    expect(lane!.segments.map((s) => [s.startMs, s.endMs, s.value])).toEqual([
      [0, 25, null],
      [25, 525, 'worker-1'],
      [525, 625, null],
      [625, 825, 'worker-2'],
      [825, 875, null],
      [875, 975, 'worker-3'],
      [975, 1030, null],
    ]);
  });

  it('says how each value went away', () => {
    const segs = deriveStoreLanes(blindDelRun())[0]!.segments.filter((s) => s.value !== null);
    expect(segs.map((s) => s.endedBy)).toEqual([
      { kind: 'expired' },
      { kind: 'deleted', by: 'worker-1' },
      { kind: 'deleted', by: 'worker-3' },
    ]);
    expect(segs.map((s) => s.holder)).toEqual(['worker-1', 'worker-2', 'worker-3']);
  });

  it('flags a key with no expiry', () => {
    const held = deriveStoreLanes(deadHolderRun())[0]!.segments.find((s) => s.value !== null)!;
    expect(held.noExpiry).toBe(true);
    expect(held.endMs).toBe(500);
    expect(held.label).toBe('Redis lock:nightly-report = worker-1 (worker-1), no expiry, from 25 ms to the end of the run (500 ms)');
  });

  it('maps lease tokens to their worker', () => {
    const segs = deriveStoreLanes(tokenLuaRun())[0]!.segments.filter((s) => s.value !== null);
    expect(segs.map((s) => s.holder)).toEqual(['worker-1', 'worker-2']);
    expect(segs[0]!.expiresAtMs).toBe(405);
  });

  it("names the worker whose lease token a lab's node holds (a lock library's random value), and draws the worker first", () => {
    const token = 'd24fc8ee-52e1-4460-bf15-0b51c9a1e2f7';
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: true, params: {}, workers: ['worker-1', 'worker-2'] })
      .at(5, null, { type: 'row-observed', store: 'Redis node', target: 'node-1 lock', value: 'free' })
      .at(80, null, { type: 'row-observed', store: 'Redis node', target: 'node-1 lock', value: token })
      .at(100, 'worker-1', { type: 'lease-acquired', key: 'mutex:lock', ttlMs: 750, token })
      .at(300, null, { type: 'row-observed', store: 'Redis node', target: 'node-1 lock', value: 'worker-2 · fence 2' })
      .at(400, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'pass' })
      .build();
    const [lane] = deriveStoreLanes(events);
    const [, held, other] = lane!.segments;
    expect(held!.holder).toBe('worker-1');
    expect(segmentText(lane!.store, held!, false)).toBe('worker-1 (d24fc8ee…)');
    // A lab's row that only mentions a worker is not taken for its lock: no token, no holder.
    expect(other!.holder).toBeNull();
  });

  it('names the worker whose token a lab\'s longer value holds (failover\'s "primary · lock <token>"), in place of the token', () => {
    const random = '0897a1dd-52e1-4460-bf15-0b51c9a1e2f7';
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1', 'worker-2'] })
      .at(50, null, { type: 'row-observed', store: 'Redis node', target: 'far replica', value: `primary · lock ${random}` })
      .at(60, 'worker-2', { type: 'lease-acquired', key: 'mutex:lock', ttlMs: 750, token: random })
      .at(70, 'worker-1', { type: 'lease-acquired', key: 'lock', ttlMs: 750, token: 'worker-1:abcd1234' })
      .at(80, null, { type: 'row-observed', store: 'Redis node', target: 'far replica', value: 'primary · lock worker-1:abcd1234' })
      .at(400, null, { type: 'run-finished', metrics: {}, expectations: [], verdict: 'fail' })
      .build();
    const [lane] = deriveStoreLanes(events);
    const [library, handWritten] = lane!.segments;
    expect([library!.holder, segmentText(lane!.store, library!, false)]).toEqual(['worker-2', 'primary · lock worker-2 (0897a1dd…)']);
    // A token that names its worker already is drawn as it is.
    expect([handWritten!.holder, segmentText(lane!.store, handWritten!, false)]).toEqual(['worker-1', 'primary · lock worker-1:abcd1234']);
  });

  it('infers the holder of a value that names no one, from who acquired the key last', () => {
    // Recorded blind-del: every holder writes "locked".
    const [lane] = deriveStoreLanes(recorded['blind-del']!);
    const held = lane!.segments.filter((s) => s.value !== null);
    expect(held.map((s) => [s.value, s.holder, s.holderInferred])).toEqual([
      ['locked', 'worker-1', true],
      ['locked', 'worker-2', true],
      ['locked', 'worker-3', true],
    ]);
    expect(held[1]!.endedBy).toEqual({ kind: 'deleted', by: 'worker-1' });
  });

  it('splits one value set twice (a fresh TTL) into two segments', () => {
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1', 'worker-2'] })
      .at(1, 'worker-1', { type: 'lease-acquired', key: 'k', ttlMs: 100 })
      .at(2, null, { type: 'key-observed', key: 'k', value: 'locked', pttlMs: 99 })
      .at(120, 'worker-2', { type: 'lease-acquired', key: 'k', ttlMs: 100 })
      .at(125, null, { type: 'key-observed', key: 'k', value: 'locked', pttlMs: 95 })
      .build();
    const segs = deriveStoreLanes(events)[0]!.segments;
    expect(segs.map((s) => [s.startMs, s.holder])).toEqual([
      [2, 'worker-1'],
      [125, 'worker-2'],
    ]);
  });

  it('draws watched PostgreSQL rows too', () => {
    const lanes = deriveStoreLanes(recorded['blind-del']!);
    const pg = lanes.find((l) => l.store === 'PostgreSQL')!;
    expect(pg.name).toBe('emails');
    expect(pg.segments.map((s) => s.value)).toEqual(['0 sent', '1 sent', '2 sent', '3 sent']);
    expect(pg.segments[0]!.pttlMs).toBeNull();
  });

  it('tells worker-1 from worker-10', () => {
    const workers = ['worker-1', 'worker-10'];
    expect(holderOf('worker-10:abc', new Map(), workers)).toBe('worker-10');
    expect(holderOf('worker-1:abc', new Map(), workers)).toBe('worker-1');
    expect(holderOf('zzz', new Map(), workers)).toBeNull();
  });
});

describe('values that name workers', () => {
  it('finds every worker a set names, and a holder only when it names one', () => {
    const workers = ['worker-1', 'worker-2', 'worker-10'];
    expect(workersIn('{worker-1, worker-10}', new Map(), workers)).toEqual(['worker-1', 'worker-10']);
    expect(holderOf('{worker-1, worker-2}', new Map(), workers)).toBeNull();
    expect(holderOf('{worker-2}', new Map(), workers)).toBe('worker-2');
  });

  it('flags only keys that workers lease', () => {
    const events = new LogBuilder()
      .at(0, null, { type: 'run-started', scenario: 's', variant: 'v', correct: false, params: {}, workers: ['worker-1', 'worker-2'] })
      .at(1, 'worker-1', { type: 'lease-acquired', key: 'lock', ttlMs: null })
      .at(2, null, { type: 'key-observed', key: 'lock', value: 'worker-1', pttlMs: -1 })
      .at(3, null, { type: 'key-observed', key: 'holders', value: '{worker-1, worker-2}', pttlMs: -1 })
      .build();
    const lanes = deriveStoreLanes(events);
    expect(lanes.map((l) => [l.name, l.leaseKey])).toEqual([
      ['lock', true],
      ['holders', false],
    ]);
    expect(lanes[1]!.segments[0]).toMatchObject({ holder: null, named: ['worker-1', 'worker-2'], holderInferred: false });
  });
});

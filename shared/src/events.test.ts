import { describe, expect, it } from 'vitest';
import { parseRunEvent, parseWorkerEvent } from './events.js';
import { slowdownWords } from './slowdownWords.js';

describe('event model', () => {
  it('parses a worker event with its stamp', () => {
    const event = { type: 'lease-acquired', key: 'lock:x', ttlMs: 400, atMs: 12.5, workerId: 'worker-1' };
    expect(parseWorkerEvent(event)).toEqual(event);
  });

  it('refuses server-only facts from a worker', () => {
    expect(parseWorkerEvent({ type: 'run-finished', atMs: 1, workerId: 'worker-1' })).toBeNull();
    expect(parseWorkerEvent({ type: 'process-killed', signal: 'SIGKILL', atMs: 1, workerId: 'worker-1' })).toBeNull();
  });

  it('refuses an event without its fields', () => {
    expect(parseWorkerEvent({ type: 'lease-released', key: 'k', atMs: 1, workerId: 'worker-1' })).toBeNull();
    expect(parseWorkerEvent({ type: 'lease-acquired', key: 'k', ttlMs: 1 })).toBeNull();
  });

  it('parses a staged fault with where it strikes as fields, and refuses one with only its words', () => {
    const stamp = { seq: 3, atMs: 5, workerId: 'worker-2' };
    const words = { type: 'fault-staged', fault: 'slowdown', target: 'node-3 +300 ms, 5% lost for worker-2', mechanism: 'proxy delay' };
    const place = { node: 'node-3', peer: null, worker: 'worker-2', slowdown: { latencyMs: 300, lossPercent: 5 } };
    expect(parseRunEvent({ ...words, ...place, ...stamp })).toEqual({ ...words, ...place, ...stamp });
    expect(parseRunEvent({ ...words, ...stamp })).toBeNull();
    expect(slowdownWords('node-3', place.slowdown)).toBe('node-3 +300 ms, 5% lost');
    expect(slowdownWords('node-3', { latencyMs: 300, lossPercent: 0 })).toBe('node-3 +300 ms');
  });

  it('parses the blocked event loop and the skewed clock as facts of their own', () => {
    const stamp = { atMs: 5, workerId: 'node-2' };
    for (const body of [
      { type: 'event-loop-blocked', task: 'synchronous task' },
      { type: 'event-loop-unblocked', task: 'synchronous task', blockedMs: 1500.4 },
      { type: 'clock-skewed', offsetMs: -1000, reference: 'node-1' },
    ])
      expect(parseWorkerEvent({ ...body, ...stamp })).toEqual({ ...body, ...stamp });
    expect(parseWorkerEvent({ type: 'event-loop-unblocked', task: 't', blockedMs: -1, ...stamp })).toBeNull();
    expect(parseWorkerEvent({ type: 'clock-skewed', offsetMs: -1000, ...stamp })).toBeNull();
    expect(parseWorkerEvent({ type: 'clock-skewed', offsetMs: '-1000', reference: 'node-1', ...stamp })).toBeNull();
  });

  it('parses a recorded run event of either side', () => {
    expect(parseRunEvent({ type: 'key-observed', key: 'k', value: null, pttlMs: -2, seq: 4, atMs: 9, workerId: null })).not.toBeNull();
    expect(parseRunEvent({ type: 'job-fired', seq: 1, atMs: 2, workerId: 'worker-2' })).not.toBeNull();
    expect(parseRunEvent({ type: 'job-fired', atMs: 2, workerId: 'worker-2' })).toBeNull();
  });
});

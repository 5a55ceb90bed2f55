import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../model/fixtures/blindDelRun.js';
import { duplicateJobManifest } from '../model/fixtures/manifest.js';
import { receive, type MessageSink } from './messages.js';

/** A sink that writes down every call it gets, in order. */
function recordingSink() {
  const calls: [string, ...unknown[]][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push([name, ...args]);
  const sink: MessageSink = {
    setCatalog: record('setCatalog'),
    runAccepted: record('runAccepted'),
    runRejected: record('runRejected'),
    runQueued: record('runQueued'),
    runUnknown: record('runUnknown'),
    runLost: record('runLost'),
    runEvent: record('runEvent'),
    setServerError: record('setServerError'),
  };
  return { sink, calls };
}

function take(frame: unknown) {
  const { sink, calls } = recordingSink();
  const logged: string[] = [];
  const taken = receive(typeof frame === 'string' ? frame : JSON.stringify(frame), sink, (text) => logged.push(text));
  return { taken, calls, logged };
}

const finished = blindDelRun().find((e) => e.type === 'run-finished')!;

describe('messages from the server', () => {
  it('routes each message the schema takes to its store action', () => {
    const events = blindDelRun().slice(0, 3);
    expect(take({ type: 'hello', catalog: [duplicateJobManifest] }).calls).toEqual([['setCatalog', [duplicateJobManifest]]]);
    expect(take({ type: 'run-accepted', requestId: 'r', runId: 'run-1', controlKey: 'ab', workers: ['worker-1'] }).calls).toEqual([
      ['runAccepted', 'r', 'run-1', 'ab', ['worker-1']],
    ]);
    expect(take({ type: 'run-rejected', requestId: 'r', error: 'busy', retryAfterMs: 1000 }).calls).toEqual([['runRejected', 'r', 'busy']]);
    expect(take({ type: 'run-queued', requestId: 'r', position: 4, estimateMs: 6000, queueKey: 'ab' }).calls).toEqual([
      ['runQueued', 'r', 4, 6000, 'ab'],
    ]);
    expect(take({ type: 'queue-left', requestId: 'r' }).calls).toEqual([]);
    expect(take({ type: 'run-unknown', runId: 'run-1' }).calls).toEqual([['runUnknown', 'run-1']]);
    expect(take({ type: 'run-lost', runId: 'run-1', server: 's2' }).calls).toEqual([['runLost', 'run-1', 's2']]);
    expect(take({ type: 'run-event', runId: 'run-1', event: finished }).calls).toEqual([['runEvent', 'run-1', finished]]);
    expect(take({ type: 'run-events', runId: 'run-1', events }).calls).toEqual(events.map((e) => ['runEvent', 'run-1', e]));
    expect(take({ type: 'error', error: 'bad' }).calls).toEqual([['setServerError', 'bad']]);
  });

  it.each([
    [
      'a run-finished with a string for its seq',
      { type: 'run-event', runId: 'run-1', event: { ...finished, seq: '7' } },
      "invalid server message 'run-event' at 'event.seq': Invalid input: expected number, received string",
    ],
    [
      'a run-finished whose verdict is not a verdict',
      { type: 'run-event', runId: 'run-1', event: { ...finished, verdict: 'maybe' } },
      "at 'event.verdict'",
    ],
    [
      'a type no server sends',
      { type: 'run-exploded', runId: 'run-1' },
      "invalid server message 'run-exploded' at 'type': Invalid discriminator value",
    ],
    [
      'an event of a type the model does not know',
      { type: 'run-event', runId: 'run-1', event: { type: 'lease-stolen', seq: 1, atMs: 2, workerId: null } },
      "at 'event.type'",
    ],
    ['a field the protocol does not name', { type: 'run-unknown', runId: 'run-1', sql: 'drop table x' }, 'Unrecognized key: "sql"'],
    ['an empty batch', { type: 'run-events', runId: 'run-1', events: [] }, "at 'events'"],
    ['a hello whose catalog is not a list', { type: 'hello', catalog: {} }, "at 'catalog'"],
    ['a run-accepted without its control key', { type: 'run-accepted', requestId: 'r', runId: 'run-1', workers: [] }, "at 'controlKey'"],
    ['a run-accepted without its workers', { type: 'run-accepted', requestId: 'r', runId: 'run-1', controlKey: 'ab' }, "at 'workers'"],
    ['text that is not JSON', 'not json', 'message is not valid JSON'],
  ])('refuses %s, says what was wrong and feeds nothing to the store', (_, frame, words) => {
    const { taken, calls, logged } = take(frame);
    expect(taken).toBe(false);
    expect(calls).toEqual([['setServerError', expect.stringContaining(words)]]);
    expect(logged).toEqual([expect.stringContaining(words)]);
  });

  it('refuses a binary frame', () => {
    const { sink, calls } = recordingSink();
    expect(receive(new ArrayBuffer(4), sink, () => {})).toBe(false);
    expect(calls).toEqual([['setServerError', expect.stringContaining('a binary frame')]]);
  });
});

// Every message the server sends, and every event a run-event may carry, round-trips
// through the shared schema unchanged: the schema takes what the server sends, no more.
import { describe, expect, it } from 'vitest';
import type { ScenarioManifest } from './catalog.js';
import type { EventOf, RunEventType } from './events.js';
import { parseServerMessage, runLostWords, type ServerMessage, type ServerMessageType } from './protocol.js';

const w = 'worker-1';
/** One sample of each event type, with its optional fields filled in; the map is complete or this file does not compile. */
const events: { [T in RunEventType]: Omit<EventOf<T>, 'seq' | 'atMs'> } = {
  'job-fired': { type: 'job-fired', workerId: w },
  'lease-requested': { type: 'lease-requested', workerId: w, key: 'lock:job' },
  'lease-acquired': { type: 'lease-acquired', workerId: w, key: 'lock:job', ttlMs: 1000, fromMs: 3.5, token: 'a1', fence: 2 },
  'lease-denied': { type: 'lease-denied', workerId: w, key: 'lock:job', heldBy: null },
  'lease-wait-started': { type: 'lease-wait-started', workerId: w, key: 'lock:job' },
  'lease-expiry-set': { type: 'lease-expiry-set', workerId: w, key: 'lock:job', ttlMs: 1000, fromMs: 4 },
  'lease-released': { type: 'lease-released', workerId: w, key: 'lock:job', deleted: 1 },
  'work-started': { type: 'work-started', workerId: w, label: 'report' },
  'work-finished': { type: 'work-finished', workerId: w, label: 'report' },
  'event-loop-blocked': { type: 'event-loop-blocked', workerId: w, task: 'parse the export' },
  'event-loop-unblocked': { type: 'event-loop-unblocked', workerId: w, task: 'parse the export', blockedMs: 1500 },
  'clock-skewed': { type: 'clock-skewed', workerId: 'node-2', offsetMs: -1000, reference: 'node-1', mechanism: 'libfaketime' },
  'write-accepted': { type: 'write-accepted', workerId: w, target: 'emails', value: 'report', fence: 2 },
  'write-rejected': { type: 'write-rejected', workerId: w, target: 'file', value: 3, fence: 1, reason: 'stale fence' },
  'job-skipped': { type: 'job-skipped', workerId: w, reason: 'lock held' },
  'value-read': { type: 'value-read', workerId: w, target: 'stock', value: 10, version: 1 },
  'wait-started': { type: 'wait-started', workerId: w, reason: 'row lock' },
  'wait-finished': { type: 'wait-finished', workerId: w, reason: 'row lock' },
  'call-finished': { type: 'call-finished', workerId: w, target: 'provider', status: 401, durationMs: 12.5 },
  'retry-scheduled': { type: 'retry-scheduled', workerId: w, reason: 'version changed' },
  'checkpoint-reached': { type: 'checkpoint-reached', workerId: w, checkpoint: 'holding-lock' },
  note: { type: 'note', workerId: w, text: 'hello' },
  'run-started': {
    type: 'run-started',
    workerId: null,
    scenario: 'duplicate-job',
    variant: 'no-lock',
    correct: false,
    params: { workers: 3, store: 'postgres', sales: [3, 2] },
    workers: [w, 'worker-2'],
    speed: 0.5,
    faults: [
      { checkpoint: 'holding-lock', target: 'first', action: 'kill' },
      { checkpoint: 'working', target: w, action: 'stall', ms: 120_000 },
      { checkpoint: 'working', target: 'worker-2', action: 'partition', ms: 500 },
      { checkpoint: 'after-grant', target: w, action: 'isolate', node: 'node-4' },
      { checkpoint: 'after-grant', target: 'worker-2', action: 'isolate', node: 'node-5', ms: 1500 },
    ],
    hosts: ['worker-2'],
    nodes: ['node-1'],
  },
  'worker-started': { type: 'worker-started', workerId: w, pid: 4242 },
  'process-paused': { type: 'process-paused', workerId: w, plannedMs: null },
  'process-resumed': { type: 'process-resumed', workerId: w },
  'process-killed': { type: 'process-killed', workerId: w, signal: 'SIGKILL' },
  'worker-exited': { type: 'worker-exited', workerId: w, code: null, signal: 'SIGKILL' },
  'key-observed': { type: 'key-observed', workerId: null, key: 'lock:job', value: null, pttlMs: -2 },
  'lock-held': {
    type: 'lock-held',
    workerId: null,
    key: 'mutex:lock:document',
    token: 'd304bb87-52e1-4460-bf15-0b51c9a1e2f7',
    pttlMs: 743,
  },
  'row-observed': { type: 'row-observed', workerId: null, store: 'PostgreSQL', target: 'emails', value: '1 row' },
  'run-finished': {
    type: 'run-finished',
    workerId: null,
    metrics: { emails: 3, holder: 'worker-1' },
    expectations: [{ id: 'one-email', metric: 'emails', op: 'eq', value: 1, text: 'one e-mail', actual: 3, held: false }],
    verdict: 'fail',
    expectedVerdict: 'fail',
    expectedReason: 'no lock',
  },
  'fault-staged': {
    type: 'fault-staged',
    workerId: 'worker-1',
    fault: 'partition',
    target: 'worker-1 ↔ node-4',
    mechanism: 'kernel nftables drop',
    node: 'node-4',
    peer: null,
    worker: 'worker-1',
    slowdown: null,
  },
  'run-failed': { type: 'run-failed', workerId: null, message: 'PostgreSQL went away' },
};
const runEvents = Object.values(events).map((e, seq) => ({ ...e, seq, atMs: seq * 1.5 }));

const manifest: ScenarioManifest = {
  id: 'duplicate-job',
  title: 'Duplicate job',
  summary: 'A nightly job on N containers.',
  explanation: 'Why.',
  params: [
    { kind: 'int', name: 'workers', label: 'Workers', help: 'How many', unit: 'workers', min: 1, max: 10, default: 3 },
    {
      kind: 'choice',
      name: 'store',
      label: 'Store',
      help: 'Where',
      options: [{ value: 'postgres', label: 'PostgreSQL' }],
      default: 'postgres',
    },
    {
      kind: 'int-list',
      name: 'sales',
      label: 'Sales',
      help: 'Each',
      unit: 'items',
      min: 1,
      max: 9,
      minItems: 1,
      maxItems: 4,
      default: [3, 2],
    },
  ],
  metrics: [
    { name: 'emails', label: 'E-mails sent', meanings: { '-1': 'no expiry' }, source: 'PostgreSQL: rows of emails', reported: false },
  ],
  variants: [
    {
      id: 'no-lock',
      title: 'No lock',
      correct: false,
      summary: 'Every worker sends.',
      code: 'send()',
      defaults: { workers: 3 },
      faults: [{ checkpoint: 'before-send', target: 'first', action: 'stall', ms: 780 }],
      checkpoints: ['before-send'],
      expected: [{ verdict: 'fail' }, { verdict: 'pass', reason: 'one worker has nobody to race' }],
    },
  ],
  declaredSets: [{ workers: 1 }],
};

/** One sample or more of each message type; the map is complete or this file does not compile. */
const messages: { [T in ServerMessageType]: Extract<ServerMessage, { type: T }>[] } = {
  hello: [{ type: 'hello', catalog: [manifest] }],
  'run-accepted': [{ type: 'run-accepted', requestId: 'r1', runId: 'run-1', controlKey: 'c0ffee', workers: ['worker-1', 'worker-2'] }],
  'run-rejected': [
    { type: 'run-rejected', requestId: 'r1', error: "unknown scenario 'x'" },
    { type: 'run-rejected', requestId: 'r1', error: 'busy', retryAfterMs: 1000 },
  ],
  'run-queued': [{ type: 'run-queued', requestId: 'r1', position: 4, estimateMs: 6000, queueKey: 'c0ffee' }],
  'queue-left': [{ type: 'queue-left', requestId: 'r1' }],
  'run-unknown': [{ type: 'run-unknown', runId: 'run-1' }],
  'run-lost': [
    { type: 'run-lost', runId: 'run-1', server: 's2' },
    { type: 'run-lost', runId: 'run-1' },
  ],
  'run-event': [
    ...runEvents.map((event) => ({ type: 'run-event' as const, runId: 'run-1', event })),
    {
      type: 'run-event',
      runId: 'run-1',
      event: { ...events['fault-staged'], fault: 'rejoin', target: 'node-4 to worker-1', seq: runEvents.length, atMs: 99 },
    },
  ],
  'run-events': [{ type: 'run-events', runId: 'run-1', events: runEvents }],
  error: [{ type: 'error', error: 'too many messages: slow down' }],
};

describe('what the server sends', () => {
  it.each(
    Object.values(messages)
      .flat()
      .map((m) => [m.type === 'run-event' ? `run-event ${m.event.type}` : m.type, m] as const),
  )('%s round-trips through the schema unchanged', (_, message) => {
    expect(parseServerMessage(JSON.stringify(message))).toEqual({ ok: true, message });
  });

  it('names the field and the problem when a message does not match', () => {
    const finished = { ...events['run-finished'], seq: 9, atMs: 'late' };
    expect(parseServerMessage(JSON.stringify({ type: 'run-event', runId: 'run-1', event: finished }))).toEqual({
      ok: false,
      error: "invalid server message 'run-event' at 'event.atMs': Invalid input: expected number, received string",
    });
  });

  it('refuses a run-lost whose server name is empty or too long', () => {
    for (const server of ['', 'x'.repeat(65)]) {
      expect(parseServerMessage(JSON.stringify({ type: 'run-lost', runId: 'run-1', server })).ok).toBe(false);
    }
  });
});

describe('the words of a run lost with its server', () => {
  it('names the server that stopped, or says it stopped', () => {
    expect(runLostWords('s2')).toBe('Your run was lost with its server (s2 stopped). Nothing was decided.');
    expect(runLostWords(undefined)).toBe('Your run was lost with its server (it stopped). Nothing was decided.');
  });
});

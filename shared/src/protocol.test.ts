import { describe, expect, it } from 'vitest';
import { parseClientMessage, parseServerMessage } from './protocol.js';

describe('parseClientMessage', () => {
  it('accepts a start-run and defaults its params', () => {
    expect(parseClientMessage('{"type":"start-run","requestId":"r1","scenario":"duplicate-job","variant":"no-lock"}')).toEqual({
      ok: true,
      message: { type: 'start-run', requestId: 'r1', scenario: 'duplicate-job', variant: 'no-lock', params: {}, speed: 1 },
    });
  });

  it('accepts a fault plan, a time scale, a live fault and a subscribe', () => {
    const start = {
      type: 'start-run',
      requestId: 'r',
      scenario: 's',
      variant: 'v',
      speed: 0.25,
      faults: [
        { checkpoint: 'working', target: 'first', action: 'stall', ms: 500 },
        { checkpoint: 'after-grant', target: 'worker-1', action: 'isolate', node: 'node-4' },
        { checkpoint: 'after-grant', target: 'worker-2', action: 'isolate', node: 'node-5', ms: 2000 },
        { checkpoint: 'after-grant', target: 'worker-1', action: 'slow', node: 'node-3', latencyMs: 300 },
        { checkpoint: 'after-grant', target: 'worker-2', action: 'slow', node: 'node-4', latencyMs: 5000, lossPercent: 50, ms: 1500 },
      ],
    };
    expect(parseClientMessage(JSON.stringify(start)).ok).toBe(true);
    expect(parseClientMessage('{"type":"fault","runId":"a","workerId":"worker-1","action":"pause"}').ok).toBe(true);
    expect(parseClientMessage('{"type":"fault","runId":"a","workerId":"node-3","action":"isolate"}').ok).toBe(true);
    expect(parseClientMessage('{"type":"fault","runId":"a","workerId":"node-3","action":"rejoin"}').ok).toBe(true);
    expect(parseClientMessage('{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":1,"lossPercent":0}').ok).toBe(
      true,
    );
    expect(
      parseClientMessage('{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":300,"lossPercent":2.5}').ok,
    ).toBe(true);
    expect(parseClientMessage('{"type":"fault","runId":"a","workerId":"node-3","action":"restore"}').ok).toBe(true);
    expect(parseClientMessage('{"type":"subscribe","runId":"a","afterSeq":41}').ok).toBe(true);
  });

  it('accepts a cancel-run', () => {
    expect(parseClientMessage('{"type":"cancel-run","runId":"abc"}').ok).toBe(true);
  });

  it.each([
    ['not json', 'message is not valid JSON'],
    ['[]', 'invalid message'],
    ['{"type":"drop-tables"}', 'invalid message'],
    ['{"type":"start-run","requestId":"r1","scenario":"x"}', "at 'variant'"],
    ['{"type":"start-run","requestId":"","scenario":"x","variant":"y"}', "at 'requestId'"],
    ['{"type":"start-run","requestId":"r","scenario":"x","variant":"y","params":[1]}', "at 'params'"],
    ['{"type":"cancel-run","runId":5}', "at 'runId'"],
    ['{"type":"start-run","requestId":"r","scenario":"x","variant":"y","speed":10}', "at 'speed'"],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"explode"}]}',
      "at 'faults.0.action'",
    ],
    ['{"type":"fault","runId":"a","workerId":"worker-1","action":"sigkill-the-server"}', "at 'action'"],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"isolate"}]}',
      "at 'faults.0.node': an isolate or a slow names its node",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"kill","node":"node-1"}]}',
      "at 'faults.0.node': an isolate or a slow names its node, and only these name one",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"isolate","node":"node-1","ms":60001}]}',
      "at 'faults.0.ms': a stall, a partition, an isolate or a slow lasts at most 60000 ms",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"isolate","node":"node-1","ms":-1}]}',
      "at 'faults.0.ms'",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"rejoin","node":"node-1"}]}',
      "at 'faults.0.action'",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"slow","latencyMs":300}]}',
      "at 'faults.0.node': an isolate or a slow names its node",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"slow","node":"node-1"}]}',
      "at 'faults.0.latencyMs': a slow names its latencyMs, and only a slow names one",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"isolate","node":"node-1","latencyMs":300}]}',
      "at 'faults.0.latencyMs': a slow names its latencyMs, and only a slow names one",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"slow","node":"node-1","latencyMs":5001}]}',
      "at 'faults.0.latencyMs': latencyMs is 1 to 5000 ms",
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"x","variant":"y","faults":[{"checkpoint":"c","target":"first","action":"stall","ms":5,"lossPercent":5}]}',
      "at 'faults.0.lossPercent': only a slow names a lossPercent",
    ],
    ['{"type":"fault","runId":"a","workerId":"node-3","action":"slow"}', "at 'latencyMs': a slow names its latencyMs"],
    ['{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":0}', "at 'latencyMs': latencyMs is 1 to 5000 ms"],
    [
      '{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":2.5}',
      "at 'latencyMs': latencyMs is a whole number of ms",
    ],
    ['{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":"300"}', "at 'latencyMs': latencyMs is a number of ms"],
    [
      '{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":300,"lossPercent":51}',
      "at 'lossPercent': lossPercent is 0 to 50",
    ],
    [
      '{"type":"fault","runId":"a","workerId":"node-3","action":"slow","latencyMs":300,"lossPercent":-1}',
      "at 'lossPercent': lossPercent is 0 to 50",
    ],
    [
      '{"type":"fault","runId":"a","workerId":"node-3","action":"restore","latencyMs":300}',
      "at 'latencyMs': a slow names its latencyMs, and only a slow names one",
    ],
    [
      '{"type":"fault","runId":"a","workerId":"worker-1","action":"pause","lossPercent":3}',
      "at 'lossPercent': only a slow names a lossPercent",
    ],
    ['{"type":"subscribe","runId":"a","afterSeq":-5}', "at 'afterSeq'"],
  ])('rejects %s with a clear error', (text, fragment) => {
    const result = parseClientMessage(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(fragment);
  });
});

describe('the line', () => {
  it('takes a cancel-queued and a rejoin-queue with its key', () => {
    expect(parseClientMessage('{"type":"cancel-queued","requestId":"r1"}')).toEqual({
      ok: true,
      message: { type: 'cancel-queued', requestId: 'r1' },
    });
    expect(parseClientMessage('{"type":"rejoin-queue","requestId":"r1","queueKey":"c0ffee"}').ok).toBe(true);
  });

  it.each([
    ['{"type":"rejoin-queue","requestId":"r1"}', "at 'queueKey'"],
    ['{"type":"rejoin-queue","requestId":"r1","queueKey":"racelab:*"}', "at 'queueKey'"],
    ['{"type":"cancel-queued","requestId":""}', "at 'requestId'"],
    ['{"type":"cancel-queued","requestId":"r1","runId":"x"}', 'Unrecognized key: "runId"'],
  ])('refuses %s', (text, fragment) => {
    const result = parseClientMessage(text);
    expect(!result.ok && result.error).toContain(fragment);
  });

  it('reads a run-queued only with a position from 1 and an estimate in whole ms', () => {
    const queued = { type: 'run-queued', requestId: 'r1', position: 4, estimateMs: 6000, queueKey: 'c0ffee' };
    expect(parseServerMessage(JSON.stringify(queued))).toEqual({ ok: true, message: queued });
    expect(parseServerMessage(JSON.stringify({ ...queued, position: 0 })).ok).toBe(false);
    expect(parseServerMessage(JSON.stringify({ ...queued, estimateMs: 1.5 })).ok).toBe(false);
  });
});

describe('what a page may send', () => {
  it.each([
    ['{"type":"start-run","requestId":"r","scenario":"a","variant":"b","sql":"drop table x"}', 'Unrecognized key: "sql"'],
    ['{"type":"subscribe","runId":"x","key":"racelab:*"}', 'Unrecognized key: "key"'],
    [
      '{"type":"start-run","requestId":"r","scenario":"a","variant":"b","faults":[{"checkpoint":"c","target":"first","action":"kill","lua":"x"}]}',
      'Unrecognized key: "lua"',
    ],
    [
      '{"type":"start-run","requestId":"r","scenario":"a","variant":"b","params":{"workers":{"$gt":1}}}',
      "at 'params.workers': a parameter is a number, a string or a list of them",
    ],
    ['{"type":"start-run","requestId":"r","scenario":"a","variant":"b","params":{"sales":[[1]]}}', "at 'params.sales'"],
  ])('refuses fields and shapes the protocol does not name: %s', (text, fragment) => {
    const result = parseClientMessage(text);
    expect(!result.ok && result.error).toContain(fragment);
  });

  it('takes numbers, strings and flat lists as parameters', () => {
    const result = parseClientMessage(
      '{"type":"start-run","requestId":"r","scenario":"a","variant":"b","params":{"a":1,"b":"x","c":[1,2],"d":"1,2"}}',
    );
    expect(result.ok).toBe(true);
  });
});

describe('keys that name a prototype', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as a parameter with a message, instead of dropping it', (key) => {
    const text = `{"type":"start-run","requestId":"r","scenario":"duplicate-job","variant":"no-lock","params":{"${key}":{"workers":7}}}`;
    expect(parseClientMessage(text)).toEqual({
      ok: false,
      error: `invalid message: key '${key}' is not allowed: it names an object's prototype, not a parameter`,
    });
  });
});

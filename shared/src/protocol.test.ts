import { describe, expect, it } from 'vitest';
import { parseClientMessage } from './protocol.js';

describe('parseClientMessage', () => {
  it('accepts a start-run and defaults its params', () => {
    expect(parseClientMessage('{"type":"start-run","requestId":"r1","scenario":"duplicate-job","variant":"no-lock"}')).toEqual({
      ok: true,
      message: { type: 'start-run', requestId: 'r1', scenario: 'duplicate-job', variant: 'no-lock', params: {} },
    });
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
  ])('rejects %s with a clear error', (text, fragment) => {
    const result = parseClientMessage(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(fragment);
  });
});

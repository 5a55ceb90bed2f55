// The agent protocol's checks, without a network: lines are cut at the limit before they are
// buffered whole, every message is checked field by field, and the clock check holds an
// agent's reading between the server's two.
import { describe, expect, it } from 'vitest';
import { clockMismatch } from '../agents/agentConnection.js';
import { LineReader, parseAgentMessage, parseServerAddress, parseServerMessage } from './agentProtocol.js';

describe('lines', () => {
  it('splits a stream into lines however it is cut', () => {
    const reader = new LineReader(100);
    expect(reader.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(reader.push(Buffer.from(':2}'))).toEqual([]);
    expect(reader.push(Buffer.from('\n\n{"c":3}\n'))).toEqual(['{"b":2}', '', '{"c":3}']);
  });

  it('refuses a line past the limit as soon as it passes it, newline or not', () => {
    expect(() => new LineReader(10).push(Buffer.alloc(11, 'x'))).toThrow('a line longer than 10 bytes');
    const reader = new LineReader(10);
    expect(reader.push(Buffer.alloc(6, 'x'))).toEqual([]);
    expect(() => reader.push(Buffer.alloc(5, 'x'))).toThrow('a line longer than 10 bytes');
    expect(new LineReader(10).push(Buffer.from(`${'x'.repeat(10)}\n`))).toEqual(['x'.repeat(10)]);
  });
});

describe("an agent's messages", () => {
  it('takes each kind when it is well formed', () => {
    const lines = [
      { kind: 'hello', protocol: 1, token: 't', name: 'alpha', slots: 4 },
      { kind: 'clock', id: 1, monotonicNs: '123456789' },
      { kind: 'started', ref: 1, pid: 42 },
      { kind: 'from-worker', ref: 1, message: { kind: 'ready' } },
      { kind: 'from-worker', ref: 1, message: { kind: 'wait', id: 3, names: ['a', 'b'] } },
      { kind: 'from-worker', ref: 1, message: { kind: 'finished', error: 'boom' } },
      { kind: 'stderr', ref: 1, line: 'could not connect' },
      { kind: 'exit', ref: 1, code: null, signal: 'SIGKILL' },
      { kind: 'exit', ref: 2, code: null, signal: null, error: 'no free slot' },
    ];
    for (const line of lines) expect(parseAgentMessage(JSON.stringify(line))).toEqual({ ok: true, message: line });
  });

  it('refuses, in words, what is not JSON, not a message, of an unknown kind or not well formed', () => {
    const refused = (line: string) => {
      const parsed = parseAgentMessage(line);
      return parsed.ok ? 'taken' : parsed.error;
    };
    expect(refused('not json')).toBe('a line that is not JSON');
    expect(refused('[1,2]')).toBe('a line that is not a message (no kind)');
    expect(refused('{"kind":"rm -rf"}')).toBe("a message of a kind racelab does not know ('rm -rf')");
    expect(refused('{"kind":"started","ref":1,"pid":-5}')).toBe("a 'started' message that is not well formed");
    expect(refused('{"kind":"from-worker","ref":1,"message":{"kind":"sabotage"}}')).toBe("a 'from-worker' message that is not well formed");
    expect(refused('{"kind":"from-worker","ref":1,"message":{"kind":"ready","extra":1}}')).toBe(
      "a 'from-worker' message that is not well formed",
    );
    expect(refused('{"kind":"exit","ref":1,"code":null,"signal":"KILL; rm"}')).toBe("a 'exit' message that is not well formed");
    expect(refused('{"kind":"clock","id":1,"monotonicNs":"12e9"}')).toBe("a 'clock' message that is not well formed");
    expect(refused('{"kind":"hello","protocol":1,"token":"t","name":"a","slots":2.5}')).toBe("a 'hello' message that is not well formed");
  });
});

describe("the server's messages, as an agent reads them", () => {
  it('takes the signals it may relay and no other', () => {
    expect(parseServerMessage('{"kind":"signal","ref":1,"signal":"SIGSTOP"}').ok).toBe(true);
    expect(parseServerMessage('{"kind":"signal","ref":1,"signal":"SIGUSR1"}')).toEqual({
      ok: false,
      error: "a 'signal' message that is not well formed",
    });
    expect(parseServerMessage('{"kind":"to-worker","ref":1,"message":{"kind":"plan","plan":{}}}').ok).toBe(true);
    expect(parseServerMessage('{"kind":"to-worker","ref":1,"message":{"kind":"eval"}}').ok).toBe(false);
  });
});

describe('the clock check', () => {
  it("takes a reading between the server's two, and refuses one from another clock, saying by how much", () => {
    expect(clockMismatch(1_000_000_000n, 1_000_500_000n, 1_001_000_000n)).toBe('');
    // Within the millisecond of rounding either side.
    expect(clockMismatch(1_000_000_000n, 999_500_000n, 1_001_000_000n)).toBe('');
    expect(clockMismatch(1_000_000_000n, 87_400_000_000_000n, 1_001_000_000n)).toMatch(
      /^its monotonic clock is not this server's: it read 87400\.000 s while this server read between 1\.000 s and 1\.001 s \(87398\.999 s ahead\)/,
    );
    expect(clockMismatch(5_000_000_000n, 1_000_000_000n, 5_000_100_000n)).toMatch(/\(4\.000 s behind\)/);
  });
});

describe("the agent's --server", () => {
  it('reads host:port and [v6]:port, nothing else', () => {
    expect(parseServerAddress('racelab:7071')).toEqual({ host: 'racelab', port: 7071 });
    expect(parseServerAddress('[::1]:7071')).toEqual({ host: '::1', port: 7071 });
    expect(parseServerAddress('racelab')).toBeUndefined();
    expect(parseServerAddress('racelab:0')).toBeUndefined();
    expect(parseServerAddress('racelab:70710')).toBeUndefined();
  });
});

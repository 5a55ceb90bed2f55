import { describe, expect, it } from 'vitest';
import { blindDelRun } from '../fixtures/blindDelRun.js';
import { deadHolderRun } from '../fixtures/deadHolderRun.js';
import { tokenLuaRun } from '../fixtures/tokenLuaRun.js';
import { chromeTrace } from './chromeTrace.js';
import { ednOf, historyOps, jepsenHistory } from './jepsenHistory.js';

describe('Chrome trace', () => {
  const trace = chromeTrace([{ label: 'duplicate-job · blind-del (broken)', events: blindDelRun() }], new Date('2026-01-01T00:00:00Z'));

  it('names the run and every worker and store lane', () => {
    const names = trace.traceEvents.filter((e) => e.ph === 'M' && e.name.endsWith('_name')).map((e) => e.args!.name);
    expect(names).toEqual([
      'duplicate-job · blind-del (broken)',
      'worker-1 (pid 5100)',
      'worker-2 (pid 5101)',
      'worker-3 (pid 5102)',
      'holders at once',
      'Redis lock:nightly-report',
    ]);
  });

  it('has leases, zombie windows and stalls as slices in microseconds', () => {
    const lease = trace.traceEvents.find((e) => e.ph === 'X' && e.cat === 'lease' && e.tid === 1)!;
    expect(lease).toMatchObject({ name: 'lease lock:nightly-report', pid: 1, ts: 5000, dur: 500_000 });
    expect(trace.traceEvents.find((e) => e.cat === 'zombie' && e.tid === 1)).toMatchObject({ ts: 505_000, dur: 298_000 });
    expect(trace.traceEvents.find((e) => e.cat === 'stall')).toMatchObject({ name: 'process stalled', ts: 8000, dur: 780_000 });
    expect(trace.traceEvents.filter((e) => e.cat === 'overlap').length).toBeGreaterThan(0);
  });

  it('has writes, deletes and releases as thread instants', () => {
    const writes = trace.traceEvents.filter((e) => e.ph === 'i' && e.cat === 'write-accepted');
    expect(writes.map((e) => [e.tid, e.ts, e.s])).toEqual([
      [1, 800_000, 't'],
      [2, 700_000, 't'],
      [3, 900_000, 't'],
    ]);
    expect(trace.traceEvents.find((e) => e.cat === 'blind-delete')!.args!.label).toBe(
      "worker-1 deleted worker-2's lock lock:nightly-report at 803 ms",
    );
    expect((JSON.parse(JSON.stringify(trace)) as { displayTimeUnit: unknown }).displayTimeUnit).toBe('ms');
  });
});

describe('Jepsen history', () => {
  it('writes EDN values', () => {
    expect(ednOf(['a"b', 2, null, { keyword: 'x' }])).toBe('["a\\"b" 2 nil :x]');
  });

  it('pairs every invocation with its completion', () => {
    const ops = historyOps(tokenLuaRun());
    const w1 = ops.filter((o) => o.worker === 'worker-1');
    expect(w1.map((o) => `${o.type} ${o.f}`)).toEqual([
      'invoke acquire',
      'ok acquire',
      'invoke write',
      'fail write',
      'invoke release',
      'ok release',
    ]);
    expect(w1[1]!.value).toEqual(['lock:nightly-report', 1]);
    expect(w1[3]!.error).toBe('stale fence 1 < 2');
    expect(ops.every((o, i) => i === 0 || o.time >= ops[i - 1]!.time)).toBe(true);
  });

  it('closes a killed worker’s open operations as :info and never reuses its process', () => {
    const events = [...deadHolderRun()];
    events.splice(1, 0, { type: 'lease-requested', key: 'lock:other', seq: 0.5, atMs: 2, workerId: 'worker-1' });
    const ops = historyOps(events);
    expect(ops.find((o) => o.type === 'info')).toMatchObject({ f: 'acquire', value: 'lock:other', process: 0, error: 'crashed' });
    expect(ops.filter((o) => o.worker === 'worker-2').every((o) => o.process === 1)).toBe(true);
  });

  it('prints one op map per line', () => {
    const lines = jepsenHistory(blindDelRun()).trim().split('\n');
    expect(lines[0]).toBe(
      '{:index 0, :type :invoke, :f :acquire, :value "lock:nightly-report", :process 0, :time 4000000, :worker "worker-1"}',
    );
    expect(lines.some((l) => l.includes(':type :ok, :f :write, :value ["email" "report-2024-06-01"]'))).toBe(true);
  });
});

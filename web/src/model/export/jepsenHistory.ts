// A history of operations in Jepsen's style (EDN, one op map per line, as in a Jepsen
// test's history.edn), for offline checkers such as Knossos or Elle:
//   {:index 0, :type :invoke, :f :acquire, :value "lock:x", :process 0, :time 2741000, :worker "worker-1"}
// :time is nanoseconds since the run started; :process is the worker's lane index, and a
// worker killed with operations in flight gets those ops closed as :info (its process
// crashed) and is never reused. Operations:
//   :acquire  value key           ok value [key fence] (fence when there is one); fail when denied
//   :expire   value [key ttl-ms]  :release value [key deleted-count]
//   :read     value nil           ok value [target value] (value [target value version] with a version)
//   :write    value [target value fence?]   ok when the store took it, fail (with :error) when it refused
//   :call     value target        ok/fail by the HTTP status (fail from 400 up)
import type { RunEvent } from '@racelab/shared';
import { inOrder, type EventLog } from '../memo.js';
import { runSummary } from '../runSummary.js';

export type EdnValue = null | number | string | { keyword: string } | EdnValue[];

export interface Op {
  type: 'invoke' | 'ok' | 'fail' | 'info';
  f: 'acquire' | 'expire' | 'release' | 'read' | 'write' | 'call';
  value: EdnValue;
  process: number;
  /** ns since the run started. */
  time: number;
  worker: string;
  error?: string;
}

const ns = (ms: number) => Math.round(ms * 1e6);

export function ednOf(v: EdnValue): string {
  if (v === null) return 'nil';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'nil';
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
  if (Array.isArray(v)) return `[${v.map(ednOf).join(' ')}]`;
  return `:${v.keyword}`;
}

/** The operations of a run, in the order the server numbered its events. */
export function historyOps(events: EventLog): Op[] {
  const { workers } = runSummary(events);
  const ops: Op[] = [];
  const process = new Map(workers.map((w, i) => [w, i]));
  let nextProcess = workers.length;
  const pending = new Map<string, Op>(); // worker + f + key → its invoke
  const pair = (w: string, f: Op['f'], e: RunEvent, invokeValue: EdnValue, type: Op['type'], value: EdnValue, extra: Partial<Op> = {}) => {
    const p = process.get(w) ?? 0;
    ops.push({ type: 'invoke', f, value: invokeValue, process: p, time: ns(e.atMs), worker: w });
    ops.push({ type, f, value, process: p, time: ns(e.atMs), worker: w, ...extra });
  };
  for (const e of inOrder(events)) {
    const w = e.workerId;
    if (w === null) continue;
    if (!process.has(w)) process.set(w, nextProcess++);
    const p = process.get(w)!;
    switch (e.type) {
      case 'lease-requested': {
        const op: Op = { type: 'invoke', f: 'acquire', value: e.key, process: p, time: ns(e.atMs), worker: w };
        ops.push(op);
        pending.set(`${w}\u0000acquire\u0000${e.key}`, op);
        break;
      }
      case 'lease-acquired':
      case 'lease-denied': {
        const slot = `${w}\u0000acquire\u0000${e.key}`;
        const ok = e.type === 'lease-acquired';
        const value: EdnValue = ok && e.fence !== undefined ? [e.key, e.fence] : e.key;
        if (!pending.delete(slot)) ops.push({ type: 'invoke', f: 'acquire', value: e.key, process: p, time: ns(e.atMs), worker: w });
        ops.push({
          type: ok ? 'ok' : 'fail',
          f: 'acquire',
          value,
          process: p,
          time: ns(e.atMs),
          worker: w,
          ...(ok ? {} : { error: 'held' }),
        });
        break;
      }
      case 'lease-expiry-set':
        pair(w, 'expire', e, [e.key, e.ttlMs], 'ok', [e.key, e.ttlMs]);
        break;
      case 'lease-released':
        pair(w, 'release', e, e.key, 'ok', [e.key, e.deleted]);
        break;
      case 'value-read':
        pair(w, 'read', e, null, 'ok', e.version === undefined ? [e.target, e.value] : [e.target, e.value, e.version]);
        break;
      case 'write-accepted':
      case 'write-rejected': {
        const value: EdnValue = e.fence === undefined ? [e.target, e.value] : [e.target, e.value, e.fence];
        if (e.type === 'write-accepted') pair(w, 'write', e, value, 'ok', value);
        else pair(w, 'write', e, value, 'fail', value, { error: e.reason });
        break;
      }
      case 'call-finished': {
        const invoke: Op = {
          type: 'invoke',
          f: 'call',
          value: e.target,
          process: p,
          time: ns(Math.max(0, e.atMs - e.durationMs)),
          worker: w,
        };
        ops.push(invoke, { ...invoke, type: e.status < 400 ? 'ok' : 'fail', time: ns(e.atMs), value: [e.target, e.status] });
        break;
      }
      case 'process-killed':
      case 'worker-exited': {
        if (e.type === 'worker-exited' && e.signal === null) break;
        for (const [slot, op] of pending) {
          if (op.worker !== w) continue;
          ops.push({ ...op, type: 'info', time: ns(e.atMs), error: 'crashed' });
          pending.delete(slot);
        }
        process.set(w, nextProcess++); // a crashed process is never reused
        break;
      }
      default:
        break;
    }
  }
  return ops.sort((a, b) => a.time - b.time);
}

/** The history as EDN text: one op map per line. */
export function jepsenHistory(events: EventLog): string {
  return historyOps(events)
    .map((op, index) => {
      const parts = [
        `:index ${index}`,
        `:type :${op.type}`,
        `:f :${op.f}`,
        `:value ${ednOf(op.value)}`,
        `:process ${op.process}`,
        `:time ${op.time}`,
        `:worker ${ednOf(op.worker)}`,
        ...(op.error ? [`:error ${ednOf(op.error)}`] : []),
      ];
      return `{${parts.join(', ')}}`;
    })
    .join('\n')
    .concat('\n');
}

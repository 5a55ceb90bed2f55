// A generated event log of any size, shaped like a real fenced-lease run: workers take a
// lease in turn, work, write with their fence and release; now and then a holder stalls
// past its lease, another takes the lock (two holders at once) and the stalled one's late
// write is refused. For benchmarks and tests of big logs; deterministic for a seed.
import { seededRandom, type RunEvent } from '@racelab/shared';

export interface SyntheticOptions {
  /** About how many events (the log ends at the first cycle boundary past it). */
  events: number;
  workers?: number;
  seed?: number;
  /** Every n-th cycle the holder stalls past its lease. */
  stallEvery?: number;
}

export const SYNTHETIC_KEY = 'lock:synthetic';
const TTL_MS = 40;

type Body = Record<string, unknown> & { type: string };

export function syntheticRun(options: SyntheticOptions): RunEvent[] {
  const workerCount = Math.max(2, options.workers ?? 8);
  const random = seededRandom(options.seed ?? 1);
  const stallEvery = options.stallEvery ?? 10;
  const workers = Array.from({ length: workerCount }, (_, i) => `worker-${i + 1}`);
  const log: RunEvent[] = [];
  const add = (atMs: number, workerId: string | null, body: Body) =>
    log.push({ ...body, seq: log.length, atMs: Math.round(atMs * 1000) / 1000, workerId } as unknown as RunEvent);

  add(0, null, {
    type: 'run-started',
    scenario: 'synthetic',
    variant: 'fenced-lease',
    correct: true,
    params: { workers: workerCount, events: options.events },
    workers,
    speed: 1,
    faults: [],
  });
  workers.forEach((w, i) => add(0.1 + i * 0.01, w, { type: 'worker-started', pid: 20_000 + i }));
  add(0.5, null, { type: 'row-observed', target: 'document', value: 'nobody · fence 0' });

  let t = 1;
  let fence = 0;
  let stale = 0;
  let cycle = 0;
  const holder = () => workers[Math.floor(random() * workerCount)]!;
  while (log.length < options.events) {
    cycle++;
    const w = holder();
    const f = ++fence;
    const token = `${w}:${f}`;
    add(t, w, { type: 'lease-requested', key: SYNTHETIC_KEY });
    add(t + 0.3, w, { type: 'lease-acquired', key: SYNTHETIC_KEY, ttlMs: TTL_MS, token, fence: f });
    add(t + 0.6, null, { type: 'key-observed', key: SYNTHETIC_KEY, value: token, pttlMs: TTL_MS });
    add(t + 0.8, w, { type: 'work-started', label: `step ${f}` });
    const other = workers[(workers.indexOf(w) + 1 + Math.floor(random() * (workerCount - 1))) % workerCount]!;
    if (random() < 0.3) add(t + 2, other, { type: 'lease-denied', key: SYNTHETIC_KEY, heldBy: token });
    if (cycle % stallEvery === 0) {
      // The holder stalls past its lease; `other` takes the lock and writes first.
      add(t + 1, w, { type: 'process-paused', plannedMs: 60 });
      add(t + TTL_MS + 0.3, null, { type: 'key-observed', key: SYNTHETIC_KEY, value: null, pttlMs: -2 });
      const g = ++fence;
      const token2 = `${other}:${g}`;
      add(t + TTL_MS + 1, other, { type: 'lease-acquired', key: SYNTHETIC_KEY, ttlMs: TTL_MS, token: token2, fence: g });
      add(t + TTL_MS + 1.2, null, { type: 'key-observed', key: SYNTHETIC_KEY, value: token2, pttlMs: TTL_MS });
      add(t + TTL_MS + 6, other, { type: 'write-accepted', target: 'document', value: `draft ${g}`, fence: g });
      add(t + TTL_MS + 6.5, null, { type: 'row-observed', target: 'document', value: `${other} · fence ${g}` });
      add(t + 61, w, { type: 'process-resumed' });
      add(t + 63, w, { type: 'write-rejected', target: 'document', value: `draft ${f}`, fence: f, reason: 'the row holds a newer fence' });
      add(t + 63.5, w, { type: 'work-finished', label: `step ${f}` });
      add(t + 64, w, { type: 'lease-released', key: SYNTHETIC_KEY, deleted: 0 });
      add(t + 66, other, { type: 'lease-released', key: SYNTHETIC_KEY, deleted: 1 });
      add(t + 66.4, null, { type: 'key-observed', key: SYNTHETIC_KEY, value: null, pttlMs: -2 });
      stale++;
      t += 68;
    } else {
      const work = 3 + random() * 6;
      add(t + work, w, { type: 'write-accepted', target: 'document', value: `draft ${f}`, fence: f });
      add(t + work + 0.4, null, { type: 'row-observed', target: 'document', value: `${w} · fence ${f}` });
      add(t + work + 0.6, w, { type: 'work-finished', label: `step ${f}` });
      add(t + work + 1, w, { type: 'lease-released', key: SYNTHETIC_KEY, deleted: 1 });
      add(t + work + 1.3, null, { type: 'key-observed', key: SYNTHETIC_KEY, value: null, pttlMs: -2 });
      t += work + 2 + random() * 2;
    }
  }
  workers.forEach((w, i) => add(t + 1 + i * 0.1, w, { type: 'worker-exited', code: 0, signal: null }));
  add(t + 2, null, {
    type: 'run-finished',
    metrics: { writes: fence, staleWritesRejected: stale, staleWritesAccepted: 0 },
    expectations: [
      { id: 'no-stale-write', metric: 'staleWritesAccepted', op: 'eq', value: 0, text: 'no stale write lands', actual: 0, held: true },
    ],
    verdict: 'pass',
  });
  return log;
}

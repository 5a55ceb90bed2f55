// A generated run of N events for the timeline-at-scale benchmark, as a racelab recording
// (shared/src/recording.ts): the bench emitter's lock cycles (lease, work, read, write,
// release, call) on W workers at a fixed rate, framed by the events a server appends.
import { createRecording, type RunEvent, type ScenarioManifest } from '@racelab/shared';

export function generatedRecording(manifest: ScenarioManifest, events: number, workers = 4, rate = 10_000): string {
  const log: RunEvent[] = [];
  const ids = Array.from({ length: workers }, (_, i) => `worker-${i + 1}`);
  const push = (workerId: string | null, atMs: number, body: Record<string, unknown>) =>
    log.push({ ...body, seq: log.length, atMs, workerId } as RunEvent);
  push(null, 0, {
    type: 'run-started',
    scenario: manifest.id,
    variant: 'steady',
    correct: true,
    params: { workers, events, rate, mode: 'mix' },
    workers: ids,
    speed: 1,
    faults: [],
  });
  ids.forEach((w, k) => push(w, 1 + k * 0.1, { type: 'worker-started', pid: 1000 + k }));
  for (let i = 0; i < events; i++) {
    const k = i % workers;
    const w = ids[k]!;
    const cycle = Math.floor(i / 8);
    const key = `lock:bench:${k}`;
    const atMs = 5 + (i * 1000) / rate;
    const bodies: Record<string, unknown>[] = [
      { type: 'lease-requested', key },
      { type: 'lease-acquired', key, ttlMs: 1000, token: `${w}:${cycle}` },
      { type: 'work-started', label: `job ${cycle}` },
      { type: 'value-read', target: 'stock', value: cycle % 100 },
      { type: 'write-accepted', target: 'stock', value: (cycle % 100) - 1 },
      { type: 'work-finished', label: `job ${cycle}` },
      { type: 'lease-released', key, deleted: 1 },
      { type: 'call-finished', target: 'GET /api', status: 200, durationMs: 3 },
    ];
    push(w, atMs, bodies[i % 8]!);
  }
  const end = 10 + (events * 1000) / rate;
  ids.forEach((w) => push(w, end, { type: 'worker-exited', code: 0, signal: null }));
  push(null, end + 1, {
    type: 'run-finished',
    metrics: { eventsEmitted: events },
    expectations: [
      { id: 'all-emitted', metric: 'eventsEmitted', op: 'eq', value: events, text: 'every event was emitted', actual: events, held: true },
    ],
    verdict: 'pass',
  });
  return JSON.stringify(createRecording(manifest, 'steady', log, new Date()));
}

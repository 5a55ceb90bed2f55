// A bench-only scenario, never in the catalog (it lives outside scenarios/, so the
// registry never sees it): W worker processes emit events at a fixed total rate through
// the real worker context, IPC, run log and WebSocket. Only the browser benchmarks'
// own server offers it to the page.
import { defineScenario, defineVariant, choiceParam, intParam, type WorkerContext } from '@racelab/server';

/** Redis key (under the run's prefix) where each worker adds how many events it emitted. */
const COUNT_KEY = 'emitted';

const steady = defineVariant<WorkerContext>({
  id: 'steady',
  title: 'Steady stream',
  correct: true,
  summary: 'Every worker emits its share of the events on a fixed schedule.',
  source: import.meta.url,
  async run(ctx) {
    const events = intParam(ctx.params, 'events');
    const rate = intParam(ctx.params, 'rate');
    const mix = choiceParam(ctx.params, 'mode') === 'mix';
    const workers = ctx.workerIds.length;
    const k = ctx.workerIds.indexOf(ctx.workerId);
    await ctx.barrier('start');
    const startMs = performance.now();
    let emitted = 0;
    // Global event i is due at i / rate seconds; this worker owns i = k, k + W, …
    for (let i = k; i < events; i += workers) {
      const dueMs = startMs + (i * 1000) / rate;
      const waitMs = dueMs - performance.now();
      if (waitMs >= 1) await ctx.sleep(waitMs);
      ctx.emit(mix ? mixEvent(ctx, i, k) : { type: 'note', text: `#${i}` });
      emitted++;
    }
    await ctx.redis.incrby(ctx.key(COUNT_KEY), emitted);
  },
});

// A lock cycle of 8 events, as a busy real run would show them: lease, work, read, write, call.
function mixEvent(ctx: WorkerContext, i: number, k: number): Parameters<WorkerContext['emit']>[0] {
  const key = `lock:bench:${k}`;
  const cycle = Math.floor(i / 8);
  switch (i % 8) {
    case 0:
      return { type: 'lease-requested', key };
    case 1:
      return { type: 'lease-acquired', key, ttlMs: 1000, token: `${ctx.workerId}:${cycle}` };
    case 2:
      return { type: 'work-started', label: `job ${cycle}` };
    case 3:
      return { type: 'value-read', target: 'stock', value: cycle % 100 };
    case 4:
      return { type: 'write-accepted', target: 'stock', value: (cycle % 100) - 1 };
    case 5:
      return { type: 'work-finished', label: `job ${cycle}` };
    case 6:
      return { type: 'lease-released', key, deleted: 1 };
    default:
      return { type: 'call-finished', target: 'GET /api', status: 200, durationMs: 3 };
  }
}

export default defineScenario<WorkerContext>({
  id: 'bench-emitter',
  title: 'Bench: event stream',
  summary: 'Bench only: worker processes emit events at a fixed rate.',
  source: import.meta.url,
  teachingOrder: 99,
  params: [
    { kind: 'int', name: 'workers', label: 'Workers', help: 'Worker processes.', min: 1, max: 16, default: 4 },
    { kind: 'int', name: 'events', label: 'Events', help: 'Events of the whole run.', min: 1, max: 100_000, default: 6000 },
    {
      kind: 'int',
      name: 'rate',
      label: 'Rate',
      unit: 'events/s',
      help: 'Events a second, all workers together.',
      min: 1,
      max: 1_000_000,
      default: 2000,
    },
    {
      kind: 'choice',
      name: 'mode',
      label: 'Mode',
      help: 'marks: one note mark per event, named #i. mix: lock cycles (lease, work, read, write, call).',
      options: [
        { value: 'marks', label: 'marks' },
        { value: 'mix', label: 'mix' },
      ],
      default: 'marks',
    },
  ],
  metrics: [{ name: 'eventsEmitted', label: 'Events emitted' }],
  variants: [steady],
  workers: (params) => Array.from({ length: intParam(params, 'workers') }, (_, i) => `worker-${i + 1}`),
  watchedKeys: () => [],
  deadlineMs: (params) => 60_000 + (intParam(params, 'events') * 1000) / intParam(params, 'rate'),
  async setup() {
    return {};
  },
  async measure(stores) {
    return { eventsEmitted: Number((await stores.redis.get(stores.key(COUNT_KEY))) ?? 0) };
  },
  expectations: (params) => [
    { id: 'all-emitted', metric: 'eventsEmitted', op: 'eq', value: intParam(params, 'events'), text: 'every event was emitted' },
  ],
  async work(ctx, variant) {
    await variant.run(ctx);
  },
});

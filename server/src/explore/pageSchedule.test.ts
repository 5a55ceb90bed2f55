// A page's schedule on a real port against the real stores: text that is not a schedule, a
// worker the run does not have, and a schedule beside a fault plan are refused in words, and
// the same connection then plays a schedule to the scenario's verdict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatChoices } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import { openTestPlayground } from '../testing/testPlayground.js';
import { connectClient, isEnd } from '../testing/wsClient.js';
import { serveApp, type ServedApp } from '../testing/testServer.js';

let playground: Playground;
let served: ServedApp;

beforeAll(async () => {
  playground = await openTestPlayground(3);
  served = await serveApp(playground);
});
afterAll(async () => {
  await served.close();
  await playground.close();
});

const start = (requestId: string, extra: Record<string, unknown>) => ({
  type: 'start-run',
  requestId,
  scenario: 'duplicate-job',
  variant: 'no-lock',
  params: { workers: 3 },
  ...extra,
});

describe("a page's schedule", () => {
  it('is refused in words when it is not one, then the same connection replays one to its verdict', async () => {
    const c = await connectClient(served.url);
    await c.next((m) => m.type === 'hello');
    const refusals: Array<[Record<string, unknown>, string]> = [
      [
        { schedule: 'worker-1,drop table emails' },
        "bad schedule: decision 2 ('drop table emails'): a decision starts with a worker id such as worker-1",
      ],
      [
        { schedule: 'worker-1:stall' },
        "bad schedule: decision 1 ('worker-1:stall'): after the worker comes nothing, ':kill' or ':expire:<key>'",
      ],
      [{ schedule: 'worker-9' }, 'the schedule names worker-9, not a worker of this run (worker-1, worker-2, worker-3)'],
      [
        { schedule: 'worker-1', faults: [{ checkpoint: 'report-sent', target: 'first', action: 'kill' }] },
        "a schedule plays the variant's own fault plan: send no faults with it",
      ],
    ];
    for (const [i, [extra, error]] of refusals.entries()) {
      c.send(start(`bad-${i}`, extra));
      expect(await c.next((m) => m.type === 'run-rejected')).toEqual({ type: 'run-rejected', requestId: `bad-${i}`, error });
    }
    // worker-3 first, then worker-2, then worker-1: each sends its report, whatever the order.
    const schedule = formatChoices([{ worker: 'worker-3' }, { worker: 'worker-2' }, { worker: 'worker-1' }]);
    await c.startRun(start('good', { schedule }));
    const end = await c.next(isEnd(), 120_000);
    expect(end.type === 'run-event' && end.event.type === 'run-finished' && end.event.metrics.emailsSent).toBe(3);
    c.socket.close();
  }, 180_000);
});

// "Partition worker-2", live from the page and at a fault plan's checkpoint: where the
// workers run as lab hosts, the worker's link is set down in the kernel and healed again,
// each logged as a fault-staged event with its mechanism; where they do not (forced off
// here, and on any machine without namespaces), the plan is refused and the live command
// answered with a clear error, and the run goes on.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '@racelab/shared';
import type { Playground } from '../runs/playground.js';
import type { Run } from '../runs/run.js';
import { eventsOf, openTestPlayground } from '../testing/testPlayground.js';
import { ROOT_ON_LINUX } from '../testing/machine.js';
import { detectLabMechanisms, MECHANISM } from './mechanisms.js';

const real = detectLabMechanisms();
let machine: Playground;
let fallback: Playground;
beforeAll(async () => {
  [machine, fallback] = await Promise.all([
    openTestPlayground(0),
    openTestPlayground(0, { labMechanisms: detectLabMechanisms({ RACELAB_REAL_FAULTS: 'off' }) }),
  ]);
});
afterAll(async () => {
  await Promise.all([machine?.close(), fallback?.close()]);
});

const partitionAtGrant: FaultRule[] = [{ checkpoint: 'after-grant', target: 'worker-2', action: 'partition', ms: 300 }];
const link = (run: Run) =>
  eventsOf(run.events, 'fault-staged', 'worker-2')
    .filter((e) => e.node === null)
    .map((e) => [e.fault, e.mechanism, e.worker]);

async function untilRunning(run: Run): Promise<void> {
  while (run.status !== 'running') {
    if (run.done) throw new Error('the run ended before it ran');
    await sleep(20);
  }
}

describe('a planned partition', () => {
  it("cuts worker-2's link at its checkpoint for its ms where the workers are hosts; is refused with a reason where they are not", async () => {
    expect(real.namespaces).toBe(ROOT_ON_LINUX); // which of the two this machine must show
    const prepared = machine.prepare({ scenario: 'redlock', variant: 'redlock', params: {}, faults: partitionAtGrant });
    if (!real.namespaces) {
      expect(prepared).toMatchObject({ ok: false, error: expect.stringMatching(/worker-2 does not run as a lab host/) });
    } else {
      if (!prepared.ok) throw new Error(prepared.error);
      const outcome = await prepared.run.start();
      expect(outcome.status).toBe('finished');
      expect(link(prepared.run)).toEqual([
        ['partition', MECHANISM.linkDown, 'worker-2'],
        ['partition-healed', MECHANISM.linkDown, 'worker-2'],
      ]);
      expect(eventsOf(prepared.run.events, 'run-started')[0]?.hosts).toEqual(['worker-1', 'worker-2']);
    }
    const refused = fallback.prepare({ scenario: 'redlock', variant: 'redlock', params: {}, faults: partitionAtGrant });
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringMatching(/partition at 'after-grant': worker-2 does not run as a lab host/),
    });
    // A scenario whose workers are never hosts refuses it everywhere.
    const fencing = machine.prepare({ scenario: 'fencing', variant: 'lease-only', params: {}, faults: partitionAtGrant });
    expect(fencing).toMatchObject({
      ok: false,
      error: expect.stringMatching(/partition at 'after-grant': worker-2 does not run as a lab host/),
    });
  });
});

describe('a live partition', () => {
  it('from the page: cut and healed in the kernel where the workers are hosts, an error and an untouched run where not', async () => {
    expect(real.namespaces).toBe(ROOT_ON_LINUX);
    for (const [playground, hosts] of [
      [machine, real.namespaces],
      [fallback, false],
    ] as const) {
      const prepared = playground.prepare({ scenario: 'redlock', variant: 'redlock', params: { pauseMs: 3000 } });
      if (!prepared.ok) throw new Error(prepared.error);
      const { run } = prepared;
      const finished = run.start();
      await untilRunning(run);
      expect(run.fault('worker-9', 'partition')).toBe("no worker 'worker-9' in this run");
      if (hosts) {
        expect(run.fault('worker-2', 'heal')).toBe('worker-2 is not partitioned');
        expect(run.fault('worker-2', 'partition')).toBeUndefined();
        expect(run.fault('worker-2', 'partition')).toBe('worker-2 is already partitioned');
        await expect.poll(() => link(run).length).toBe(1);
        expect(run.fault('worker-2', 'heal')).toBeUndefined();
        await expect
          .poll(() => link(run))
          .toEqual([
            ['partition', MECHANISM.linkDown, 'worker-2'],
            ['partition-healed', MECHANISM.linkDown, 'worker-2'],
          ]);
      } else {
        expect(run.fault('worker-2', 'partition')).toMatch(/^worker-2 does not run as a lab host of its own/);
        expect(eventsOf(run.events, 'run-started')[0]?.hosts).toEqual([]);
      }
      const outcome = await finished;
      if (outcome.status !== 'finished') throw new Error(`the run did not finish: ${outcome.status}`);
      expect(outcome.verdict).toBe(outcome.expected.verdict);
      expect(run.fault('worker-2', 'partition')).toBe('the run has ended');
    }
  });
});

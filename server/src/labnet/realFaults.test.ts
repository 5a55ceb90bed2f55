// The scenarios with network and clock faults give the same verdicts whichever mechanism
// plays their faults, and each run says which one did: the kernel's partition and
// libfaketime where the machine has them (root on Linux), the proxy and the simulated
// clock when the real ones are forced off. No namespace of this process outlives a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { racelabNamespaces } from '../debris/namespaces.js';
import type { Playground } from '../runs/playground.js';
import { eventsOf, openTestPlayground, play } from '../testing/testPlayground.js';
import { NAMESPACE_PREFIX } from './labHost.js';
import { detectLabMechanisms, MECHANISM } from './mechanisms.js';

const real = detectLabMechanisms();
const forcedOff = detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' });
let machine: Playground;
let fallback: Playground;
beforeAll(async () => {
  [machine, fallback] = await Promise.all([openTestPlayground(0), openTestPlayground(2, { labMechanisms: forcedOff })]);
});
afterAll(async () => {
  await Promise.all([machine?.close(), fallback?.close()]);
});

const mine = async (): Promise<string[]> => (await racelabNamespaces()).filter((n) => n.startsWith(`${NAMESPACE_PREFIX}${process.pid}-`));

/** Plays a variant and checks its verdict is the one expected at these parameters; returns the run. */
async function asExpected(playground: Playground, scenario: string, variant: string, params: Record<string, unknown> = {}) {
  const played = await play(playground, scenario, variant, params);
  if (played.outcome.status !== 'finished') throw new Error(`the run failed: ${played.outcome.message}`);
  expect(played.verdict).toBe(played.outcome.expected.verdict);
  return played;
}

const mechanisms = (events: Parameters<typeof eventsOf>[0]) => eventsOf(events, 'fault-staged').map((e) => [e.fault, e.mechanism]);

describe('redlock: a split', () => {
  const split = { reach: 'split', leaseMs: 2000, pauseMs: 3000, workMs: 100 };
  it('is cut in the kernel where the workers are hosts, by the blackhole when forced off: the same verdicts', async () => {
    const kernel = real.namespaces && real.nftables ? MECHANISM.nftables : MECHANISM.proxy;
    const onMachine = await asExpected(machine, 'redlock', 'redlock', split);
    // Two nodes out of each worker's reach.
    expect(mechanisms(onMachine.events)).toEqual(Array(4).fill(['partition', kernel]));
    const imitated = await asExpected(fallback, 'redlock', 'redlock', split);
    expect(mechanisms(imitated.events)).toEqual(Array(4).fill(['partition', MECHANISM.proxy]));
    expect(imitated.metrics).toEqual(onMachine.metrics);
    // Each worker really ran in a namespace of its own on the machine, and in none when forced off.
    expect(eventsOf(onMachine.events, 'fault-staged', 'worker-2').map((e) => e.target)).toEqual(['worker-2 ↔ node-1', 'worker-2 ↔ node-2']);
    expect(await mine()).toEqual([]);
  });

  it('forced off: the fenced variant at the defaults and the clock jump, with the jump named simulated', async () => {
    await asExpected(fallback, 'redlock', 'redlock-fenced');
    const jump = await asExpected(fallback, 'redlock', 'redlock', { clockJumpMs: 1000, pauseMs: 0, reach: 'split' });
    expect(mechanisms(jump.events)).toContainEqual(['clock-jump', MECHANISM.simulatedExpiry]);
  });
});

describe('cron-clock-skew: the late clocks', () => {
  it("move the node's own wall clock with libfaketime where installed, and are simulated when forced off: the same verdicts", async () => {
    const clock = real.faketime ? MECHANISM.faketime : MECHANISM.simulatedClock;
    for (const params of [{}, { nodes: 3, skewMs: 200, jobMs: 300 }] as Record<string, unknown>[]) {
      for (const variant of ['release-when-done', 'lock-per-slot']) {
        const onMachine = await asExpected(machine, 'cron-clock-skew', variant, params);
        expect(eventsOf(onMachine.events, 'clock-skewed').map((e) => e.mechanism)).not.toHaveLength(0);
        expect(new Set(eventsOf(onMachine.events, 'clock-skewed').map((e) => e.mechanism))).toEqual(new Set([clock]));
        const imitated = await asExpected(fallback, 'cron-clock-skew', variant, params);
        expect(new Set(mechanisms(imitated.events).map(([, m]) => m))).toEqual(new Set([MECHANISM.simulatedClock]));
        expect(imitated.metrics).toEqual(onMachine.metrics);
      }
    }
  });
});

describe('failover: the slow link', () => {
  it("holds the primary's bytes in the kernel where the far replica is a host, in the proxy when forced off: the same verdicts", async () => {
    const kernel = real.namespaces && real.nftables ? MECHANISM.nftables : MECHANISM.proxy;
    const onMachine = await asExpected(machine, 'failover', 'plain-lock');
    expect(mechanisms(onMachine.events)).toEqual([['slow-link', kernel]]);
    const imitated = await asExpected(fallback, 'failover', 'plain-lock');
    expect(mechanisms(imitated.events)).toEqual([['slow-link', MECHANISM.proxy]]);
    expect(imitated.metrics).toEqual(onMachine.metrics);
    // Either way the bytes the primary sent after the hold died with it.
    for (const played of [onMachine, imitated]) {
      const link = eventsOf(played.events, 'row-observed').filter((e) => e.target === 'link to the far replica');
      expect(link.at(-1)?.value).toMatch(/^cut · [1-9]\d* bytes never arrived$/);
    }
    expect(await mine()).toEqual([]);
  });
});

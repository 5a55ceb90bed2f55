// The scenarios with network and clock faults give the same verdicts whichever mechanism
// plays their faults, and each run says which one did: the kernel's partition, libfaketime
// and the wall clock shim where the machine has them (root on Linux, a C compiler), the
// proxy and the simulated clock and expiry when the real ones are forced off. Every variant
// of redlock, failover and cron-clock-skew is played both ways at its defaults, and each
// hand-written one at each parameter set its scenario declares too, and held to the
// verdict expected there. A library variant differs from the hand-written ones in its lock
// calls only, never in the faults or their mechanisms: at the declared sets it adds time,
// not a path. No namespace, link, faked process or clock file of this process outlives the runs.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsOf, resolveParams, type Params, type RunEvent, type ScenarioManifest } from '@racelab/shared';
import { racelabNamespaces } from '../debris/namespaces.js';
import type { Playground } from '../runs/playground.js';
import { loadCatalog } from '../scenarios/registry.js';
import { ROOT_ON_LINUX } from '../testing/machine.js';
import { childrenOf } from '../testing/processTable.js';
import { eventsOf, openTestPlayground, play, type Played } from '../testing/testPlayground.js';
import { NAMESPACE_PREFIX } from './labHost.js';
import { detectLabMechanisms, MECHANISM, type LabMechanisms } from './mechanisms.js';

const real = detectLabMechanisms();
const forcedOff = detectLabMechanisms({ ...process.env, RACELAB_REAL_FAULTS: 'off' });
const { manifests } = await loadCatalog();
let machine: Playground;
let fallback: Playground;
/** Every worker process any run of this file started. */
const workerPids = new Set<number>();
beforeAll(async () => {
  // Warm workers for the runs whose workers are not lab hosts; a lab host's is made for its run.
  [machine, fallback] = await Promise.all([openTestPlayground(2), openTestPlayground(2, { labMechanisms: forcedOff })]);
});
afterAll(async () => {
  await Promise.all([machine?.close(), fallback?.close()]);
});

const mine = `${NAMESPACE_PREFIX}${process.pid}-`;
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const faked = (pid: number): boolean => {
  try {
    return /libfaketime/.test(readFileSync(`/proc/${pid}/environ`, 'utf8'));
  } catch {
    return false; // gone between the two looks
  }
};
/** A process with the wall clock shim loaded (a redis-server writes its title over its environment, so its maps tell). */
const underShim = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/maps`, 'utf8').includes('wallClockShim.so');
  } catch {
    return false; // gone between the two looks
  }
};
/** The clock folders (labnet/movableClock.ts) this process made and has not removed. */
const myClockFolders = (): string[] =>
  readdirSync(os.tmpdir())
    .filter((name) => name.startsWith('racelab-clock-'))
    .filter((name) => {
      try {
        return (JSON.parse(readFileSync(path.join(os.tmpdir(), name, 'owner.json'), 'utf8')) as { owner: number }).owner === process.pid;
      } catch {
        return false; // gone between the two looks
      }
    });

/** [fault, target, mechanism] of every fault of a run, in one order whichever worker logged first. */
const faultList = (events: RunEvent[]): string[][] =>
  faultsOf(events)
    .map((f) => [f.fault, f.target, f.mechanism])
    .sort((a, b) => a.join().localeCompare(b.join()));

/** The faults a run at these parameters must log, played by these mechanisms. */
type FaultsExpected = (params: Params, mechanisms: LabMechanisms) => string[][];

const kernelCut = (m: LabMechanisms): string => (m.namespaces && m.nftables ? MECHANISM.nftables : MECHANISM.proxy);
const jumpedClock = (m: LabMechanisms): string => (m.wallClockShim ? MECHANISM.wallClockShim : MECHANISM.simulatedExpiry);

const redlockFaults: FaultsExpected = (params, m) => [
  // A split: two nodes out of each worker's reach.
  ...(params.reach === 'split'
    ? [
        ['partition', 'worker-1 ↔ node-4', kernelCut(m)],
        ['partition', 'worker-1 ↔ node-5', kernelCut(m)],
        ['partition', 'worker-2 ↔ node-1', kernelCut(m)],
        ['partition', 'worker-2 ↔ node-2', kernelCut(m)],
      ]
    : []),
  // node-3's own clock under the wall clock shim where it builds, its expiries elsewhere.
  ...(Number(params.clockJumpMs) > 0 ? [['clock-jump', `node-3 +${Number(params.clockJumpMs)} ms`, jumpedClock(m)]] : []),
  ...(Number(params.pauseMs) > 0 ? [['stall', 'worker-1', 'SIGSTOP']] : []),
];

const failoverFaults: FaultsExpected = (params, m) => (params.lag === 'slow' ? [['slow-link', 'primary → far replica', kernelCut(m)]] : []);

const clock = (m: LabMechanisms): string => (m.faketime ? MECHANISM.faketime : MECHANISM.simulatedClock);
/** node-k is (k-1) × skew late; node-1, the true clock, is not skewed. */
const cronFaults: FaultsExpected = (params, m) =>
  Number(params.skewMs) === 0
    ? []
    : Array.from({ length: Number(params.nodes) - 1 }, (_, i) => [
        'clock-skew',
        `node-${i + 2}'s clock -${(i + 1) * Number(params.skewMs)} ms`,
        clock(m),
      ]);

const SCENARIOS: Record<string, FaultsExpected> = {
  redlock: redlockFaults,
  failover: failoverFaults,
  'cron-clock-skew': cronFaults,
};

/** Plays a variant at a set and checks the verdict expected there and each fault's mechanism. */
async function playedAsExpected(playground: Playground, mechanisms: LabMechanisms, scenario: string, variant: string, setIndex: number) {
  const manifest = manifests.find((m) => m.id === scenario)!;
  const set = setsOf(manifest)[setIndex]!;
  const resolved = resolveParams(manifest, variant, set);
  if (!resolved.ok) throw new Error(resolved.error);
  const played = await play(playground, scenario, variant, set);
  for (const e of eventsOf(played.events, 'worker-started')) workerPids.add(e.pid);
  if (played.outcome.status !== 'finished') throw new Error(`${variant} failed: ${played.outcome.message}`);
  const expected = manifest.variants.find((v) => v.id === variant)!.expected![setIndex]!;
  expect(played.outcome.expected).toEqual(expected); // the manifest's word is the run's
  expect({ variant, verdict: played.verdict }).toEqual({ variant, verdict: expected.verdict });
  expect(faultList(played.events)).toEqual(
    SCENARIOS[scenario]!(resolved.params, mechanisms).sort((a, b) => a.join().localeCompare(b.join())),
  );
  return played;
}

/** The defaults, then each declared set: the order of a variant's `expected` verdicts. */
const setsOf = (manifest: ScenarioManifest): Params[] => [{}, ...(manifest.declaredSets ?? [])];

it('this machine gives the labs what root on Linux gives: namespaces, nftables, libfaketime and the wall clock shim', () => {
  expect(real.namespaces).toBe(ROOT_ON_LINUX);
  expect(real.nftables).toBe(ROOT_ON_LINUX);
  expect(real.faketime !== null).toBe(ROOT_ON_LINUX);
  // The shim needs Linux and a C compiler, not root (.ci/run installs gcc where cc is missing).
  expect(real.wallClockShim !== null).toBe(process.platform === 'linux');
  expect(forcedOff).toMatchObject({ namespaces: false, nftables: false, faketime: null, wallClockShim: null });
});

for (const scenario of Object.keys(SCENARIOS)) {
  const manifest = manifests.find((m) => m.id === scenario)!;
  // A scenario's sets at once (the config's maxConcurrency): each run keeps its lab apart.
  describe.concurrent(scenario, () => {
    for (const [setIndex, set] of setsOf(manifest).entries()) {
      const variants = setIndex === 0 ? manifest.variants : manifest.variants.filter((v) => !v.library);
      it(`at ${setIndex === 0 ? 'the defaults' : JSON.stringify(set)}: ${setIndex === 0 ? 'every variant' : 'every hand-written variant'}, real and forced off, gives its expected verdict with its faults' mechanisms named`, async () => {
        for (const variant of variants) {
          // The two playgrounds at once: one run each, as the scenario tests run them.
          const [onMachine, imitated] = await Promise.all([
            playedAsExpected(machine, real, scenario, variant.id, setIndex),
            playedAsExpected(fallback, forcedOff, scenario, variant.id, setIndex),
          ]);
          expect({ variant: variant.id, metrics: imitated.metrics }).toEqual({ variant: variant.id, metrics: onMachine.metrics });
          checkHosts(scenario, onMachine, imitated);
        }
      }, 300_000);
    }
  });
}

/** Which processes ran as hosts: the workers of redlock on the machine, none forced off. */
function checkHosts(scenario: string, onMachine: Played, imitated: Played): void {
  const hosts = (played: Played) => eventsOf(played.events, 'run-started')[0]!.hosts;
  expect(hosts(onMachine)).toEqual(scenario === 'redlock' && real.namespaces ? ['worker-1', 'worker-2'] : []);
  expect(hosts(imitated)).toEqual([]);
  // Clocks are moved in cron-clock-skew only, and each late node's own clock said how.
  for (const [played, m] of [
    [onMachine, real],
    [imitated, forcedOff],
  ] as const) {
    const mechanisms = new Set(eventsOf(played.events, 'clock-skewed').map((e) => e.mechanism));
    expect(mechanisms).toEqual(new Set(scenario === 'cron-clock-skew' ? [clock(m)] : []));
  }
}

describe('nothing of the runs is left', () => {
  it('no namespace of this process, no link into one, no worker under libfaketime, no redis-server under the shim and no clock file', async () => {
    expect(workerPids.size).toBeGreaterThan(0); // the runs above ran
    expect((await racelabNamespaces()).filter((n) => n.startsWith(mine))).toEqual([]);
    const links = execFileSync('ip', ['-o', 'link', 'show']).toString();
    expect(links.split('\n').filter((line) => line.includes(`link-netns ${mine}`))).toEqual([]);
    // Warm pool workers live until the playgrounds close; none of them is faked.
    expect([...workerPids].filter((pid) => alive(pid) && faked(pid))).toEqual([]);
    // The runs' redis-servers are this process's children while they run.
    expect(childrenOf(process.pid).filter((c) => underShim(c.pid))).toEqual([]);
    expect(myClockFolders()).toEqual([]);
  });
});

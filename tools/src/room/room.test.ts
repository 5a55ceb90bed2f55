// `npm run room` at a small scale, for real: six attendees against a workshop of two servers
// on this machine (the real HAProxy, the real stores), each following three chapters (broken
// then correct). Every run ends with the verdict the catalogue expects, no start is answered
// "busy", both servers take runs, both are sampled from /proc, and nothing is left in the stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, findHaproxy, startWorkshop, type Workshop } from '@racelab/server';
import { runRoom } from './room.js';
import { figures, quantile, reportLines } from './roomReport.js';

const haproxy = findHaproxy();
let workshop: Workshop;

/** Until the proxy sends the affinity cookie of `name` to that server: it is in the rotation. */
async function inRotation(name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(workshop.url, { headers: { cookie: `RACELAB_SERVER=${name}` } });
    await response.body?.cancel();
    if (response.headers.get('x-racelab-server') === name) return;
    if (Date.now() > deadline) throw new Error(`${name} did not join the rotation`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!haproxy)('a simulated room against a workshop of two servers', () => {
  beforeAll(async () => {
    workshop = await startWorkshop({ servers: 2, haproxy: haproxy!, env: { ...process.env, RACELAB_POOL_SIZE: '2' }, log: () => {} });
    for (const server of workshop.servers) await inRotation(server.name);
  }, 180_000);
  afterAll(() => workshop?.stop());

  it('six attendees: every verdict as expected, none "busy", runs on both servers, nothing left behind', async () => {
    const report = await runRoom({
      url: workshop.url,
      attendees: 6,
      // Half a second apart: each arrives after the one before holds its socket, so leastconn alternates.
      arrivalS: 3,
      thinkS: 0,
      stores: { redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL, databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL },
    });
    expect(report.unexpected).toEqual([]);
    expect(report.runs).toBe(36);
    expect(report.asExpected).toBe(36);
    expect(report.rejected).toBe(0);
    expect(Object.keys(report.byServer).sort()).toEqual(['s1', 's2']);
    expect(Object.values(report.byServer).reduce((a, b) => a + b, 0)).toBe(36);
    expect(report.usage?.servers.map((s) => [s.name, s.pid])).toEqual(workshop.servers.map((s) => [s.name, s.pid]));
    for (const server of report.usage!.servers) expect(server.peakRssMb).toBeGreaterThan(20);
    expect(report.leftovers).toEqual({ keys: 0, aclUsers: 0, schemas: 0, roles: 0 });
    expect(reportLines(report).join('\n')).toMatch(/verdicts as expected: 36 of 36/);
  }, 300_000);
});

describe('the figures of a room', () => {
  it('takes quantiles by the nearest rank', () => {
    expect(quantile([], 0.5)).toBe(0);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(
      quantile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        0.95,
      ),
    ).toBe(95);
  });

  it('counts verdicts against their expectation, "busy" answers and runs by server', () => {
    const base = { runId: 'a', waitMs: 100, queued: false, worstPosition: 0, rejected: 0 };
    const result = figures(
      2,
      [
        { ...base, scenario: 'lost-update', variant: 'x', expected: 'fail', verdict: 'fail', server: 's1' },
        { ...base, scenario: 'lost-update', variant: 'y', expected: 'pass', verdict: 'failed', server: 's2', error: 'boom', rejected: 2 },
      ],
      10,
    );
    expect(result).toMatchObject({ runs: 2, asExpected: 1, rejected: 2, byServer: { s1: 1, s2: 1 } });
    expect(result.unexpected).toEqual(['lost-update/y on s2: failed, expected pass (boom)']);
  });
});

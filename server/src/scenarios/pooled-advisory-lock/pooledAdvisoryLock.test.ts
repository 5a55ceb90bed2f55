// pooled-advisory-lock against the real PostgreSQL through a real PgBouncer (transaction
// pooling, one server connection) that each run starts and stops. worker-2 asks for the lock
// once worker-1 holds it, and worker-1 works until worker-2 holds it too or workMs has passed,
// so each count is the same on every run. Where the binary is missing, the scenario is listed
// unavailable with what to install, and its runs are refused. The declared sets and the
// near-miss are in pooledAdvisoryLock.params.test.ts (`npm run test:full`).
import { afterEach, describe, expect, it } from 'vitest';
import { faultsOf } from '@racelab/shared';
import { manifestOf } from '../registry.js';
import { eventsOf } from '../../testing/testPlayground.js';
import { scenarioUnderTest } from '../../testing/scenarioUnderTest.js';
import { pgbouncerMissing } from '../../services/pgbouncer.js';
import scenario from './index.js';

const tested = scenarioUnderTest('pooled-advisory-lock');
const { run } = tested;

describe('pooled-advisory-lock at its defaults', () => {
  it('session-lock: both workers are handed the same backend, and its re-entrant lock is granted to both', async () => {
    const { metrics, verdict, events } = await run('session-lock');
    expect(metrics).toEqual({ maxConcurrentHolders: 2, backends: 1 });
    expect(verdict).toBe('fail');
    expect(eventsOf(events, 'lease-acquired').map((e) => e.workerId)).toEqual(['worker-1', 'worker-2']);
    // The run's faults, as the CLI's --json lists them, name the pooler between the workers and PostgreSQL.
    expect(faultsOf(events).map((f) => `${f.workerId} ${f.fault}: ${f.mechanism}`)).toEqual([
      'worker-1 pooling: pgbouncer transaction pool',
      'worker-2 pooling: pgbouncer transaction pool',
    ]);
  });

  it('xact-lock: worker-2 waits for the end of worker-1’s transaction', async () => {
    const { metrics, verdict, events } = await run('xact-lock');
    expect(metrics).toEqual({ maxConcurrentHolders: 1, backends: 1 });
    expect(verdict).toBe('pass');
    const [released] = eventsOf(events, 'lease-released', 'worker-1');
    expect(eventsOf(events, 'lease-acquired', 'worker-2')[0]!.atMs).toBeGreaterThanOrEqual(released!.atMs);
  });
});

describe('pooled-advisory-lock without PgBouncer', () => {
  afterEach(() => {
    delete process.env.RACELAB_PGBOUNCER;
  });

  it('is listed unavailable, saying what to install, and never imitated', () => {
    process.env.RACELAB_PGBOUNCER = '/nonexistent/racelab/pgbouncer';
    const reason =
      'needs PgBouncer, not found at /nonexistent/racelab/pgbouncer: install it (apt-get install pgbouncer) or set RACELAB_PGBOUNCER to its binary';
    expect(pgbouncerMissing()).toBe(reason);
    expect(manifestOf(scenario).unavailable).toBe(reason);
  });

  it('a run of it is refused with that reason, and the server goes on serving', async () => {
    const catalog = (tested.playground as unknown as { catalog: { manifests: { id: string; unavailable?: string }[] } }).catalog;
    const manifest = catalog.manifests.find((m) => m.id === 'pooled-advisory-lock')!;
    manifest.unavailable = 'needs PgBouncer, not found at /nonexistent/racelab/pgbouncer';
    try {
      expect(tested.playground.prepare({ scenario: 'pooled-advisory-lock', variant: 'xact-lock', params: {} })).toEqual({
        ok: false,
        error: 'pooled-advisory-lock is unavailable here: needs PgBouncer, not found at /nonexistent/racelab/pgbouncer',
      });
    } finally {
      delete manifest.unavailable;
    }
    expect((await run('xact-lock')).verdict).toBe('pass');
  });
});

// Ctrl-C of the CLI while a worker is stopped in a planned stall: the run is cancelled, the
// stopped worker is continued and killed, its keys and schema go, and the CLI exits 130 at
// once — not when the stall's timer would have ended it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@racelab/shared';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from './services/index.js';
import { childrenOf } from './testing/processTable.js';
import { alive, leftovers, until, workerPids } from './testing/wsClient.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, max: 1 });
afterAll(async () => {
  redis.disconnect();
  await pool.end();
});

describe('the CLI stopped with Ctrl-C', () => {
  it('during a planned 15 s stall exits 130 at once and leaves nothing behind', async () => {
    // fencing lease-only: worker-1 is stopped (SIGSTOP) for pauseMs right after it takes the lease.
    const child = spawn(process.execPath, [cli, 'fencing', '--variant', 'lease-only', '--param', 'pauseMs=15000', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until(() => childrenOf(child.pid!).some((c) => c.state === 'T'), 'a worker stopped in its stall', 60_000);

    const signalledAt = performance.now();
    child.kill('SIGINT');
    const code = await exited;
    const took = performance.now() - signalledAt;
    console.log(`CLI Ctrl-C during a stall: exit ${code} ${Math.round(took)} ms after SIGINT`);
    expect(code).toBe(130);
    // Not held by the stall's timer (14 s more); the clean-up of keys and schema is in it.
    expect(took).toBeLessThan(5000);
    const result = JSON.parse(stdout) as { runId: string; verdict: string; events: RunEvent[]; asExpected: boolean };
    expect(result).toMatchObject({ verdict: 'error', asExpected: false });
    expect(result.events.some((e) => e.type === 'process-paused')).toBe(true);
    expect(result.events.some((e) => e.type === 'process-resumed')).toBe(false);
    expect(workerPids(result.events).filter(alive)).toEqual([]);
    expect(await leftovers(redis, pool, result.runId)).toEqual({ keys: [], schema: false });
  }, 120_000);
});

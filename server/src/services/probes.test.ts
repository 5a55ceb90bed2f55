import { describe, expect, it } from 'vitest';
import { freePort } from './freePort.js';
import { probePostgres } from './probePostgres.js';
import { probeRedis } from './probeRedis.js';

// Sockets and timers the event loop would wait for (the kinds a failed client could leave behind).
function loopHandles(): string[] {
  return process.getActiveResourcesInfo().filter((kind) => /TCP|Timeout|Pipe/.test(kind)).sort();
}

describe('reachability probes', () => {
  it('accept the real Redis and PostgreSQL on 127.0.0.1 and close their connections', async () => {
    const before = loopHandles();
    await probeRedis('redis://127.0.0.1:6379');
    await probePostgres('postgres://postgres@127.0.0.1:5432/postgres');
    // A clean close takes a round trip or two.
    for (let i = 0; i < 20 && loopHandles().length > before.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(loopHandles()).toEqual(before);
  });

  it('reject a closed port quickly and leave no sockets or timers behind', async () => {
    const port = await freePort();
    const before = loopHandles();
    const t0 = Date.now();
    await expect(probeRedis(`redis://127.0.0.1:${port}`)).rejects.toThrow();
    await expect(probePostgres(`postgres://postgres@127.0.0.1:${port}/postgres`)).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(3000);
    // Let close callbacks run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(loopHandles()).toEqual(before);
  });
});

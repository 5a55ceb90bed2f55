import { describe, expect, it } from 'vitest';
import { freePort } from './freePort.js';
import { probePostgres } from './probePostgres.js';
import { probeRedis } from './probeRedis.js';

// Sockets and timers the event loop would wait for (the kinds a failed client could leave behind).
function loopHandles(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((kind) => /TCP|Timeout|Pipe/.test(kind))
    .sort();
}

/** Kinds of which there are more now than before: what a probe left behind. (The test
 *  runner's own timers may end meanwhile, so fewer is fine.) */
function leftBehind(before: string[], after: string[]): string[] {
  const count = (list: string[], kind: string) => list.filter((k) => k === kind).length;
  return [...new Set(after)].filter((kind) => count(after, kind) > count(before, kind));
}

describe('reachability probes', () => {
  it('accept the real Redis and PostgreSQL on 127.0.0.1 and close their connections', async () => {
    const before = loopHandles();
    await probeRedis('redis://127.0.0.1:6379');
    await probePostgres('postgres://postgres@127.0.0.1:5432/postgres');
    // A clean close takes a round trip or two.
    for (let i = 0; i < 20 && leftBehind(before, loopHandles()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(leftBehind(before, loopHandles())).toEqual([]);
  });

  it('reject a closed port and leave no sockets or timers behind', async () => {
    const port = await freePort();
    const before = loopHandles();
    await expect(probeRedis(`redis://127.0.0.1:${port}`)).rejects.toThrow();
    await expect(probePostgres(`postgres://postgres@127.0.0.1:${port}/postgres`)).rejects.toThrow();
    // Let close callbacks run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(leftBehind(before, loopHandles())).toEqual([]);
  });
});

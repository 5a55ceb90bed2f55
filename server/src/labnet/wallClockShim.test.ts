// The wall clock shim on a real redis-server, started under it on a free port: its wall
// clock follows the clock file (the total offset in ms) at once, in TIME and in the expiry
// of its keys, while the host's clock, and a redis-server beside it without the shim, stay
// put. And the shim's build: compiled once per source into a folder of this user's own,
// two processes building at once both end up with a whole library, and no compiler or a
// source that does not compile gives no library and says why.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../services/embeddedRedis.js';
import { reapOrphans } from '../services/scratchDir.js';
import type { StartedService } from '../services/startedService.js';
import { clockAheadMs } from '../scenarios/redlock/nodeClock.js';
import { jumpClockFile, readClockOffsetMs, writeClockOffsetMs } from './clockFile.js';
import { createMovableClock, type MovableClock } from './movableClock.js';
import { buildWallClockShim, SHIM_SOURCE, type ShimBuild } from './wallClockShim.js';

const run = promisify(execFile);
const roots: string[] = [];
/** A cache root of its own: the build starts from nothing there. */
const freshRoot = (): string => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'racelab-shim-test-'));
  roots.push(root);
  return root;
};
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const libraryOf = (build: ShimBuild): string => {
  if ('why' in build) throw new Error(`no shim: ${build.why}`);
  return build.library;
};

/** What the dynamic loader says of a process started with `library` preloaded: nothing, when it loads. */
const preloadComplaint = (library: string): string =>
  spawnSync(process.execPath, ['-e', ''], { env: { ...process.env, LD_PRELOAD: library }, encoding: 'utf8' }).stderr;

describe('building the shim', () => {
  it('compiles once per source into a folder of this user’s own, and finds it there afterwards', () => {
    const root = freshRoot();
    const library = libraryOf(buildWallClockShim({ cacheRoot: root }));
    expect(path.relative(root, library)).toMatch(/^racelab-clockshim-[0-9a-f]{16}\/wallClockShim\.so$/);
    expect(statSync(path.dirname(library)).mode & 0o777).toBe(0o700);
    expect(preloadComplaint(library)).toBe('');
    const built = statSync(library);
    // Found, not built again: the same file, untouched; and no partial compile is left beside it.
    expect(libraryOf(buildWallClockShim({ cacheRoot: root }))).toBe(library);
    expect(statSync(library)).toMatchObject({ ino: built.ino, mtimeMs: built.mtimeMs });
    expect(readdirSync(path.dirname(library))).toEqual(['wallClockShim.so']);
  });

  it('two processes building at once, from the built server, both end up with the same whole library', async () => {
    const root = freshRoot();
    // The server as it runs: from dist/, whose shim source is the package's src/ file.
    const built = fileURLToPath(new URL('../../dist/labnet/wallClockShim.js', import.meta.url));
    const script = `import { buildWallClockShim, SHIM_SOURCE } from ${JSON.stringify(built)};
      console.log(JSON.stringify({ source: SHIM_SOURCE, build: buildWallClockShim({ cacheRoot: ${JSON.stringify(root)} }) }));`;
    const outputs = await Promise.all([1, 2].map(() => run(process.execPath, ['--input-type=module', '-e', script])));
    const said = outputs.map((o) => JSON.parse(o.stdout) as { source: string; build: ShimBuild });
    expect(said.map((s) => s.source)).toEqual([SHIM_SOURCE, SHIM_SOURCE]);
    const [first, second] = said.map((s) => libraryOf(s.build));
    expect(second).toBe(first);
    expect(preloadComplaint(first!)).toBe('');
    expect(readdirSync(path.dirname(first!))).toEqual(['wallClockShim.so']);
  });

  it('without a compiler, or with a source that does not compile, gives no library and says why', () => {
    expect(buildWallClockShim({ cacheRoot: freshRoot(), compilers: ['racelab-no-such-cc'] })).toEqual({
      why: 'no C compiler (racelab-no-such-cc) to build the wall clock shim',
    });
    const root = freshRoot();
    const broken = path.join(root, 'broken.c');
    writeFileSync(broken, 'int clock_gettime(;\n');
    const build = buildWallClockShim({ cacheRoot: root, source: broken });
    expect(build).toEqual({ why: expect.stringMatching(/^cc failed to build the wall clock shim: .*error/) as unknown });
    // Nothing half-built is left for the next look.
    const folder = readdirSync(root).find((name) => name.startsWith('racelab-clockshim-'))!;
    expect(readdirSync(path.join(root, folder))).toEqual([]);
  });

  it('will not use a folder that anyone else may write', () => {
    const name = path.basename(path.dirname(libraryOf(buildWallClockShim({ cacheRoot: freshRoot() }))));
    const root = freshRoot();
    mkdirSync(path.join(root, name));
    chmodSync(path.join(root, name), 0o777);
    expect(buildWallClockShim({ cacheRoot: root })).toEqual({
      why: `${path.join(root, name)} is not this user's own folder, writable by no one else`,
    });
    expect(readdirSync(path.join(root, name))).toEqual([]);
  });
});

/** µs since the epoch, by a redis-server's own wall clock. */
const timeUs = async (redis: Redis): Promise<number> => {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1_000_000 + Number(micros);
};

/**
 * Whether `node`'s clock reads `offsetMs` ahead of the host's: its TIME lies within the host
 * clock's reads just before and just after (the reference's TIME, µs), moved by the offset.
 */
async function readsAhead(node: Redis, reference: Redis, offsetMs: number): Promise<boolean> {
  const before = await timeUs(reference);
  const at = await timeUs(node);
  const after = await timeUs(reference);
  return before - 1 <= at - offsetMs * 1000 && at - offsetMs * 1000 <= after + 1;
}

describe('a redis-server under the shim', () => {
  let clock: MovableClock;
  let node: StartedService;
  let reference: StartedService;
  let moved: Redis;
  let host: Redis;
  beforeAll(async () => {
    clock = await createMovableClock(libraryOf(buildWallClockShim()));
    [node, reference] = await Promise.all([startEmbeddedRedis({ env: clock.env }), startEmbeddedRedis()]);
    moved = new Redis(node.url, { maxRetriesPerRequest: 1 });
    host = new Redis(reference.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    for (const client of [moved, host]) client?.disconnect();
    await Promise.all([node?.stop(), reference?.stop()]);
    await clock?.close();
  });

  /** The reference keeps the host's clock, as this process reads it (Date.now: whole ms). */
  const expectHostClock = async (): Promise<void> => {
    const before = Date.now();
    const referenceMs = (await timeUs(host)) / 1000;
    expect(referenceMs).toBeGreaterThanOrEqual(before);
    expect(referenceMs).toBeLessThan(Date.now() + 1);
  };
  const pidOf = async (redis: Redis): Promise<number> => Number(/^process_id:(\d+)/m.exec(await redis.info('server'))![1]);

  it('loads it (and one beside it without it does not), and runs on the host’s clock until the file moves it', async () => {
    const own = await pidOf(moved);
    clock.check(own, 'the moved redis-server');
    expect(() => clock.check(process.pid, 'this test')).toThrow(/this test \(pid \d+\) did not load the wall clock shim/);
    expect(readClockOffsetMs(clock.file)).toBe(0);
    expect(await readsAhead(moved, host, 0)).toBe(true);
    await expectHostClock();
  });

  it('a jump moves TIME and the keys’ deadlines at once; the next jump adds to it; the file holds the total, and may set it back', async () => {
    // Two keys on each server: one that outlives a 5 s jump, one that does not.
    const setAt = Date.now();
    for (const client of [moved, host]) {
      await client.set('long', 'v', 'PX', 10_000);
      await client.set('short', 'v', 'PX', 3000);
    }
    expect(jumpClockFile(clock.file, 5000)).toBe(5000);
    const pttl = await moved.pttl('long');
    const hostPttl = await host.pttl('long');
    const elapsed = Date.now() - setAt;
    // 5 s of the moved server's key went at once; the reference's lost only the time that passed.
    expect(pttl).toBeLessThanOrEqual(5000);
    expect(pttl).toBeGreaterThanOrEqual(5000 - elapsed - 1);
    expect(hostPttl).toBeGreaterThanOrEqual(10_000 - elapsed - 1);
    expect(await moved.exists('short')).toBe(0); // expired by the server's own clock
    expect(await readsAhead(moved, host, 5000)).toBe(true);
    await expectHostClock();

    // A second jump adds to the first: the file holds the total.
    expect(jumpClockFile(clock.file, 2000)).toBe(7000);
    expect(readClockOffsetMs(clock.file)).toBe(7000);
    expect(await readsAhead(moved, host, 7000)).toBe(true);
    // Set back, and behind: the offset is signed.
    writeClockOffsetMs(clock.file, -1500);
    expect(await readsAhead(moved, host, -1500)).toBe(true);
    writeClockOffsetMs(clock.file, 0);
    expect(await readsAhead(moved, host, 0)).toBe(true);
  });

  it('the server reads the lead off the two servers’ TIME to the ms', async () => {
    writeClockOffsetMs(clock.file, 1234);
    // A look of 10 reads tells nothing only when none was quick: look again until one tells.
    let aheadMs: number | null = null;
    for (let look = 0; look < 100 && aheadMs === null; look++) aheadMs = await clockAheadMs(moved, host);
    expect(aheadMs).toBe(1234);
    writeClockOffsetMs(clock.file, 0);
  });
});

describe('a movable clock’s folder', () => {
  it('goes with close(), and after its owner died, with the sweep', async () => {
    const library = libraryOf(buildWallClockShim());
    const closed = await createMovableClock(library);
    expect(existsSync(closed.file)).toBe(true);
    await closed.close();
    expect(existsSync(path.dirname(closed.file))).toBe(false);

    const left = await createMovableClock(library);
    const owner = path.join(path.dirname(left.file), 'owner.json');
    // As if its owner had been SIGKILLed: a pid that has already exited.
    const dead = (await run(process.execPath, ['-e', 'console.log(process.pid)'])).stdout.trim();
    writeFileSync(owner, readFileSync(owner, 'utf8').replace(String(process.pid), dead));
    expect(await reapOrphans()).toBeGreaterThanOrEqual(1);
    expect(existsSync(path.dirname(left.file))).toBe(false);
  });
});

it('the source ships beside the code that builds it', () => {
  expect(existsSync(SHIM_SOURCE)).toBe(true);
});

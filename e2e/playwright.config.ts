import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';
import { browserEnv } from '../server/dist/testing/netlinkShim.js';

// The server under test: the built page, WebSocket and API on one port, against the real
// Redis and PostgreSQL of this machine. `npm test` at the root builds everything first.
// A free port, never a fixed one (another server may hold it): asked of the system once, in
// the runner, and handed to the test workers (which load this file again) in the environment.
const freePort = () =>
  execFileSync(
    process.execPath,
    ['-e', "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"],
    { encoding: 'utf8' },
  ).trim();
process.env.RACELAB_E2E_PORT ??= process.env.PORT ?? freePort();
const PORT = process.env.RACELAB_E2E_PORT;
// The embed test's host page: another origin (localhost, not 127.0.0.1) that the server lets
// frame the page, the documented way (RACELAB_FRAME_ANCESTORS).
process.env.RACELAB_E2E_EMBEDDER_PORT ??= freePort();
const EMBEDDER = `http://localhost:${process.env.RACELAB_E2E_EMBEDDER_PORT}`;
const baseURL = `http://127.0.0.1:${PORT}`;
// The room view's token, handed to the test workers as the port is (room.spec.ts).
process.env.RACELAB_E2E_ROOM_TOKEN ??= 'e2e-room-token-of-the-browser-tests';
const ROOM_TOKEN = process.env.RACELAB_E2E_ROOM_TOKEN;

// `npm test` runs the browser smoke: each scenario from the page (catalog.spec) and a
// recording played with no server (replay.spec). `npm run test:full` (RACELAB_SUITE=full)
// runs every spec: layouts, keyboard, presenter, faults, reconnects, exports.
const SMOKE = ['catalog.spec.ts', 'replay.spec.ts'];
const full = process.env.RACELAB_SUITE === 'full';
// Two spec files at a time: one browser test keeps a 2-core machine about two thirds busy
// (much of a test is a run's choreography, waited for). These run first, with nothing beside
// them: the room view counts every page of the server, and real partitions and blocked event
// loops have windows another test's CPU could close.
const ALONE = ['room.spec.ts', 'livePartition.spec.ts', 'loopAndClock.spec.ts', 'lostServer.spec.ts'];
const CHROMIUM = {
  browserName: 'chromium' as const,
  viewport: { width: 1600, height: 1000 },
  launchOptions: {
    // Debian's chromium: no browser is ever downloaded (never run `playwright install`).
    executablePath: '/usr/bin/chromium',
    // Blind to the host's links, which real partitions change (server/src/testing/noNetlink.c).
    env: browserEnv(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  },
};

export default defineConfig({
  testDir: 'tests',
  testMatch: full ? '**/*.spec.ts' : SMOKE,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  use: {
    baseURL,
    // A failed test keeps its trace (actions, DOM snapshots, network, console) without the
    // screencast: encoding a frame of every paint was a third of the browser's CPU in a run
    // of the suite, on a machine the suite keeps busy.
    trace: { mode: 'retain-on-failure', screenshots: false },
  },
  webServer: {
    command: 'node ../server/dist/main.js',
    // The room view on, with a token the room spec knows (room.spec.ts).
    env: { PORT, RACELAB_FRAME_ANCESTORS: EMBEDDER, RACELAB_ROOM_TOKEN: ROOM_TOKEN },
    url: `${baseURL}/api/catalog`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
  projects: [
    { name: 'alone', testMatch: full ? ALONE : [], workers: 1, use: CHROMIUM },
    { name: 'chromium', testIgnore: ALONE, dependencies: ['alone'], use: CHROMIUM },
  ],
});

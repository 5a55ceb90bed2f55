import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

// The live browser benchmarks (not part of `npm test`, and apart from the page-only
// benchmarks of ../playwright.bench.config.ts): the built page served by the bench
// server (tools/dist/bench/emitter/benchServer.js: the real socket server, runs and
// worker processes, offering only the bench emitter scenario), in Debian's Chromium.
// `npm run bench` runs them; figures go to BENCH_RESULTS_DIR as JSON.
const PORT = process.env.BENCH_PORT ?? '7373';
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.live-bench.ts',
  timeout: 300_000,
  reporter: 'line',
  use: { ...base.use, baseURL, trace: 'off' },
  webServer: {
    command: 'node ../../tools/dist/bench/emitter/benchServer.js',
    env: { PORT, ...(process.env.BENCH_WEB_ROOT ? { BENCH_WEB_ROOT: process.env.BENCH_WEB_ROOT } : {}) },
    url: `${baseURL}/api/catalog`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});

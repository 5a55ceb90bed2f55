import { defineConfig } from '@playwright/test';

// The server under test: the built page, WebSocket and API on one port, against the real
// Redis and PostgreSQL of this machine. `npm test` at the root builds everything first.
const PORT = process.env.PORT ?? '7171';
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'tests',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node ../server/dist/main.js',
    env: { PORT },
    url: `${baseURL}/api/catalog`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        viewport: { width: 1600, height: 1000 },
        launchOptions: {
          // Debian's chromium: no browser is ever downloaded (never run `playwright install`).
          executablePath: '/usr/bin/chromium',
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
      },
    },
  ],
});

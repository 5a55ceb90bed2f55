import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

// Benchmarks print numbers; they assert nothing about time. No racelab server: they serve
// the built page statically and feed it generated logs. npm run bench -w e2e
export default defineConfig({ ...base, testDir: 'bench', testMatch: '*.bench.ts', webServer: undefined, timeout: 300_000 });

import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

// Refreshes the README's pictures with the same server and browser as the test suite.
export default defineConfig({ ...base, testDir: 'screenshots' });

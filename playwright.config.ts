// Playwright runs the end-to-end tests in Debian's Chromium (never a downloaded browser, STACK gotcha 7)
// against the real server, which tests/e2e/global-setup.ts starts on a fresh data directory.
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  throw new Error(
    `Chromium was not found at ${chromium}. Install Debian's package with "apt-get install -y chromium", ` +
      'or point CHROMIUM_PATH at a Chromium binary.',
  );
}

// A port of its own per run unless one is given: the runner sets it once and its workers inherit it.
process.env.E2E_PORT ??= String(8200 + (process.pid % 700));
export const E2E_PORT = Number(process.env.E2E_PORT);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Separate runs (several engineers on one machine) each get their own folder.
  outputDir: process.env.E2E_OUTPUT || 'test-results',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous: CI runs on 2 shared cores, where a sync or a processing job can take seconds. A passing
  // test is no slower for it; only a failing one waits longer.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? 'line' : 'list',
  // The pull test leaves 1,200 studies on the shared server; every later sign-in would pull them all
  // into its browser, so it runs after the other specs.
  projects: [
    { name: 'flows', testIgnore: /offline-pull\.spec\.ts/ },
    { name: 'bulk', testMatch: /offline-pull\.spec\.ts/, dependencies: ['flows'] },
  ],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    // A trace of every action costs about a sixth of the suite's time (105 s against 87 s for two
    // specs); CI, whose output is text only, turns it off (E2E_TRACE=off in .ci/run).
    trace: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      // This machine's network is closed: keep Chromium from reaching out on its own.
      args: [
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});

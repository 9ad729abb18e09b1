// Starts the server as `npm start` does (built app, embedded PGlite, fresh DATA_DIR, no ADMIN_PASSWORD)
// and reads the URL and the generated administrator password from what it prints, as a newcomer would.
// Then stops it, puts fixture slides into its data directory, and starts it again: the tests sign in
// with the credentials printed by the first start, so they also show that data survives a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { seedSlides } from './seed-slides';
import { firstStartPrinted, readPrinted, startServer, stopServer } from './server-process';

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0].use.baseURL!;
  const port = new URL(baseURL).port;
  const dist = process.env.DIST_DIR || 'dist';
  if (!fs.existsSync(path.join(dist, 'index.html')))
    throw new Error(`Build the app first: npm run build (${dist})`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-'));
  let server = startServer(port, dataDir);
  const printed = await readPrinted(server, firstStartPrinted);
  await stopServer(server);
  const slides = await seedSlides(dataDir);
  server = startServer(port, dataDir);
  await readPrinted(server, (text) => (/running at/.test(text) ? true : undefined));
  // Tests read what the server printed, not constants of their own.
  process.env.E2E_PRINTED_URL = printed.url;
  process.env.E2E_ADMIN_EMAIL = printed.email;
  process.env.E2E_ADMIN_PASSWORD = printed.password;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_SLIDES = JSON.stringify(slides);
  return async () => {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

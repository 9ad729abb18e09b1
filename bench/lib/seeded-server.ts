// The built app's server as the e2e global setup starts it, for the browser benches: a fresh DATA_DIR,
// a first start that creates the administrator and prints the password, the fixture slides seeded
// between two starts (PGlite allows one process), and a second start that serves them.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  firstStartPrinted,
  freePort,
  readPrinted,
  startServer,
  stopServer,
} from '../../tests/e2e/server-process';
import { seedSlides, type SeededSlide } from '../../tests/e2e/seed-slides';

export interface SeededServer {
  child: ChildProcess;
  port: number;
  dataDir: string;
  admin: { email: string; password: string };
  slides: Record<string, SeededSlide>;
}

/** Starts it; `startMs`: how long each start may take before the bench gives up. */
export async function startSeededServer(startMs: number): Promise<SeededServer> {
  const dist = path.resolve(process.env.DIST_DIR || 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html')))
    throw new Error(`Build the app first: DIST_DIR=${dist} npm run build`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  const port = await freePort();
  const first = startServer(port, dataDir);
  const printed = await readPrinted(first, firstStartPrinted, startMs).catch(async (e) => {
    await stopServer(first);
    throw e;
  });
  await stopServer(first);
  const slides = await seedSlides(dataDir);
  const child = startServer(port, dataDir);
  await readPrinted(child, (text) => (/running at/.test(text) ? true : undefined), startMs);
  return { child, port, dataDir, admin: { email: printed.email, password: printed.password }, slides };
}

export { stopServer };

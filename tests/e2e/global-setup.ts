// Starts the server as `npm start` does (built app, embedded PGlite, fresh DATA_DIR, no ADMIN_PASSWORD)
// and reads the URL and the generated administrator password from what it prints, as a newcomer would.
// Then stops it, puts fixture slides into its data directory, and starts it again: the tests sign in
// with the credentials printed by the first start, so they also show that data survives a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { seedSlides } from './seed-slides';

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0].use.baseURL!;
  const port = new URL(baseURL).port;
  const dist = process.env.DIST_DIR || 'dist';
  if (!fs.existsSync(path.join(dist, 'index.html')))
    throw new Error(`Build the app first: npm run build (${dist})`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-e2e-'));
  const start = () =>
    spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        PORT: port,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        ADMIN_PASSWORD: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const stop = async (child: ReturnType<typeof start>) => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  let server = start();
  const printed = await readPrinted(server, (text) => {
    const url = /running at (\S+)/.exec(text)?.[1];
    const email = /administrator created: (\S+)/.exec(text)?.[1];
    const password = /shown once[^:]*: (\S+)/.exec(text)?.[1];
    return url && email && password ? { url, email, password } : undefined;
  });
  await stop(server);
  const slides = await seedSlides(dataDir);
  server = start();
  await readPrinted(server, (text) => (/running at/.test(text) ? true : undefined));
  // Tests read what the server printed, not constants of their own.
  process.env.E2E_PRINTED_URL = printed.url;
  process.env.E2E_ADMIN_EMAIL = printed.email;
  process.env.E2E_ADMIN_PASSWORD = printed.password;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_SLIDES = JSON.stringify(slides);
  return async () => {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

/** Waits until what the server printed satisfies `parse`. */
function readPrinted<T>(server: ChildProcess, parse: (text: string) => T | undefined): Promise<T> {
  let out = '';
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const found = parse(out);
      if (found !== undefined) {
        clearTimeout(timer);
        server.stdout?.off('data', onData);
        server.stderr?.off('data', onData);
        resolve(found);
      }
    };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', onData);
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

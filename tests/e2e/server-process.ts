// The server as `npm start` runs it, in a process of its own (built app, embedded PGlite in the given
// DATA_DIR, no ADMIN_PASSWORD), and what it prints: the global setup's shared server and the
// first-run spec's fresh one both start this way, and read the URL and the generated password as a
// newcomer would.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export function startServer(port: string | number, dataDir: string, args: string[] = []): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', ...args], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** A port nobody listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** What the first start prints: where it runs, and the administrator it created. */
export function firstStartPrinted(
  text: string,
): { url: string; email: string; password: string } | undefined {
  const url = /running at (\S+)/.exec(text)?.[1];
  const email = /administrator created: (\S+)/.exec(text)?.[1];
  const password = /shown once[^:]*: (\S+)/.exec(text)?.[1];
  return url && email && password ? { url, email, password } : undefined;
}

/** Waits until what the server printed satisfies `parse`. */
export function readPrinted<T>(
  server: ChildProcess,
  parse: (text: string) => T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  let out = '';
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), timeoutMs);
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

// The real server for a bench: a fresh database (a `tessera_bench_<random>` PostgreSQL database, dropped
// at the end, or a PGlite in a temp dir), `buildApp` + `listen` on a free loopback port, the first
// administrator, and sign-in over HTTP.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const ADMIN = { email: 'admin@bench.test', password: 'bench horse battery staple' };
export type DbKind = 'postgres' | 'pglite';

export interface BenchServer {
  app: FastifyInstance;
  database: Database;
  origin: string;
  dataDir: string;
  /** The PostgreSQL URL of the bench database (for EXPLAIN from a separate client). */
  url?: string;
  close(): Promise<void>;
}

export async function postgresAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function adminQuery(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

/**
 * Opens a fresh database of `kind`, builds the app on it and listens on 127.0.0.1:<free port>.
 * `reuse` (PostgreSQL only): the name of a database to open, created when missing and kept at the end,
 * so a seeded dataset serves several runs while iterating.
 */
export async function startServer(kind: DbKind, reuse?: string): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  let url: string | undefined;
  let dbName: string | undefined;
  if (kind === 'postgres') {
    if (reuse && !/^[a-z_][a-z0-9_]*$/.test(reuse)) throw new Error(`bad database name ${reuse}`);
    dbName = reuse ?? `tessera_bench_${crypto.randomBytes(5).toString('hex')}`;
    if (!reuse || !(await databaseExists(dbName))) await adminQuery(`CREATE DATABASE ${dbName}`);
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${dbName}`;
    url = u.toString();
  }
  const database = await openDatabase(url ?? path.join(dataDir, 'db'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-dist'),
    LOG_LEVEL: 'warn',
  });
  const app = await buildApp({ config, database });
  await bootstrap(app.ctx.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    database,
    origin: `http://127.0.0.1:${port}`,
    dataDir,
    url,
    async close() {
      await app.close();
      await database.close();
      if (dbName && !reuse) await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in over HTTP and returns the access token. */
export async function signIn(
  origin: string,
  email = ADMIN.email,
  password = ADMIN.password,
): Promise<string> {
  const res = await fetch(`${origin}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { accessToken: { token: string } };
  return body.accessToken.token;
}

/** Peak resident memory, sampled every `everyMs` until stopped. */
export function rssSampler(everyMs = 100): { stop(): number; peak(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, everyMs);
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Command-line flags: `--name value` and bare `--flag`. */
export function flags(argv = process.argv.slice(2)): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [k, v] = a.slice(2).split('=', 2);
    if (v !== undefined) out.set(k, v);
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out.set(k, argv[++i]);
    else out.set(k, true);
  }
  return out;
}

/** The machine line every bench prints with its figures. */
export function machine(): string {
  const cpus = os.cpus();
  return `${os.cpus().length} cores (${cpus[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** The 1-minute load average: the machine is shared, so every bench prints it beside its figures. */
export function loadLine(): string {
  const [one, five] = os.loadavg();
  return `load average ${one.toFixed(1)} (1 min), ${five.toFixed(1)} (5 min) on ${os.cpus().length} cores`;
}

// Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
// Both run the same Drizzle schema and the same SQL migrations (STACK gotcha 9).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL text (several statements allowed, no parameters). */
  exec(sqlText: string): Promise<void>;
  /**
   * Runs one parameterised statement and returns its rows (used by the job queue). `prepared`: keep
   * the statement prepared on each PostgreSQL connection, named by a hash of its text, so later runs
   * skip parsing and, once PostgreSQL settles on a generic plan, planning (the hot list and caller
   * statements, bench/README.md api-lists). PGlite runs it as it is.
   */
  query<T = Record<string, unknown>>(
    sqlText: string,
    params?: unknown[],
    options?: { prepared?: boolean },
  ): Promise<T[]>;
  /**
   * PostgreSQL only: a connection of its own, held by its user (a session-level advisory lock lives
   * as long as the connection holding it), and LISTEN on a channel. Absent on PGlite, which one
   * process owns: there, in-process locks suffice.
   */
  shared?: SharedSessions;
  /**
   * Calls `onPayload` for each NOTIFY on `channel` (sent by any process on PostgreSQL, by this one on
   * PGlite), delivered when the notifying transaction commits. Returns the unsubscribe.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** PGlite only: the whole data directory as a tarball, which `OpenOptions.pgliteDump` takes. */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

/** What several processes on one PostgreSQL use to coordinate. */
export interface SharedSessions {
  /** A connection from a pool of its own (not the queries' pool), until `release()`. */
  session(): Promise<HeldSession>;
  /** Database.listen, on one LISTEN connection of this process. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** NOTIFY `channel` with `payload`. */
  notify(channel: string, payload: string): Promise<void>;
}

export interface HeldSession {
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
  /** Gives the connection back; `broken`: close it instead (its locks go with it). */
  release(broken?: boolean): void;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

type Run = (text: string) => Promise<Array<Record<string, unknown>>>;

/** How many migrations the database has applied (0 for a new one). */
async function appliedMigrations(run: Run): Promise<number> {
  const [table] = await run(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!table?.present) return 0;
  const [row] = await run('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  return Number(row?.n ?? 0);
}

/**
 * Migrates, then vacuums the listed tables when a migration ran: one that rewrites a table (0013's
 * generated column) clears its visibility map, and autovacuum does not come back to a read-mostly
 * table for a long time, so the lists' index-only picks (0012, 0014, 0015) would read the table
 * meanwhile (bench/README.md, api-lists). VACUUM cannot run inside the migration's transaction.
 */
async function migrateAndVacuum(run: Run, migrateNow: () => Promise<void>): Promise<void> {
  const before = await appliedMigrations(run);
  await migrateNow();
  if (before > 0 && (await appliedMigrations(run)) > before)
    await run('VACUUM (ANALYZE) scan_groups, studies');
}

export interface OpenOptions {
  /**
   * PGlite only: start from this data directory (a `dumpDataDir()` tarball) instead of creating an
   * empty one. Creating a cluster is PGlite's slowest step; the tests start hundreds of databases.
   */
  pgliteDump?: Blob;
}

/** `location`: a postgres:// URL, a directory for PGlite, or 'memory://' for a throwaway PGlite. */
export async function openDatabase(location: string, options: OpenOptions = {}): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(location)) return openPostgres(location);
  return openPglite(location, options.pgliteDump);
}

async function openPglite(location: string, dump?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // pg_trgm: migration 0009's trigram indexes (search, study name), which PostgreSQL has in contrib.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (location !== 'memory://') fs.mkdirSync(location, { recursive: true });
  const extensions = { pg_trgm };
  const opts = { extensions, ...(dump ? { loadDataDir: dump } : {}) };
  const client = location === 'memory://' ? new PGlite(opts) : new PGlite(location, opts);
  await client.waitReady;
  const db = drizzle({ client, schema, casing: 'snake_case' });
  await migrateAndVacuum(
    async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    () => migrate(db, { migrationsFolder }),
  );
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    exec: async (text) => {
      await client.exec(text);
    },
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return () => stop();
    },
    dumpDataDir: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}

/**
 * Statements kept prepared, by text. Each one lives on every pooled connection (and in its backend)
 * until the pool ends, so their number is capped: past it, new texts run unprepared.
 */
const PREPARED_KEPT = 500;
const preparedNames = new Map<string, string>();

function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (!name && preparedNames.size < PREPARED_KEPT) {
    name = `t${crypto.createHash('sha1').update(text).digest('base64url')}`;
    preparedNames.set(text, name);
  }
  return name;
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server (restart, admin command) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', () => undefined);
  const db = drizzle({ client: pool, schema, casing: 'snake_case' });
  const shared = sharedSessions(pg, url);
  await migrateAndVacuum(
    async (text) => (await pool.query(text)).rows as Array<Record<string, unknown>>,
    () => migrate(db, { migrationsFolder }),
  );
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    exec: async (text) => {
      await pool.query(text);
    },
    query: async <T>(text: string, params?: unknown[], options?: { prepared?: boolean }) => {
      const name = options?.prepared ? preparedName(text) : undefined;
      const result = name
        ? await pool.query({ name, text, values: params as unknown[] })
        : await pool.query(text, params as unknown[]);
      return result.rows as T[];
    },
    shared,
    listen: (channel, onPayload) => shared.listen(channel, onPayload),
    close: async () => {
      await Promise.all([pool.end(), shared.end()]);
    },
  };
}

/** Held sessions and LISTEN for one PostgreSQL URL, each on connections of their own, opened lazily. */
function sharedSessions(
  pg: typeof import('pg').default,
  url: string,
): SharedSessions & { end(): Promise<void> } {
  // Each held session is an upload being written: many at once are normal, so the pool is wide.
  const held = new pg.Pool({ connectionString: url, max: 64 });
  held.on('error', () => undefined);
  let listener: Promise<import('pg').Client> | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const listening = () =>
    (listener ??= (async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      client.on('notification', (n) => {
        for (const fn of handlers.get(n.channel) ?? []) fn(n.payload ?? '');
      });
      await client.connect();
      return client;
    })().catch((error: unknown) => {
      listener = undefined; // a failed connection is not kept: the next listen tries again
      throw error;
    }));
  const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;
  return {
    async session() {
      const client = await held.connect();
      return {
        query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
        release: (broken) => client.release(broken),
      };
    },
    async listen(channel, onPayload) {
      const client = await listening();
      let set = handlers.get(channel);
      if (!set) {
        handlers.set(channel, (set = new Set()));
        await client.query(`LISTEN ${quoted(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await held.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async end() {
      const client = listener && (await listener.catch(() => undefined));
      await Promise.all([held.end(), client?.end()]);
    },
  };
}

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
  close(): Promise<void>;
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

/** `location`: a postgres:// URL, a directory for PGlite, or 'memory://' for a throwaway PGlite. */
export async function openDatabase(location: string): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(location)) return openPostgres(location);
  return openPglite(location);
}

async function openPglite(location: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // pg_trgm: migration 0009's trigram indexes (search, study name), which PostgreSQL has in contrib.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (location !== 'memory://') fs.mkdirSync(location, { recursive: true });
  const extensions = { pg_trgm };
  const client = location === 'memory://' ? new PGlite({ extensions }) : new PGlite(location, { extensions });
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
    close: () => pool.end(),
  };
}

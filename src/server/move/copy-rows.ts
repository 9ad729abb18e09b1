// Copies every row of an embedded PGlite database into a PostgreSQL database migrated to the same
// schema, as they are: ids, change_seq stamps (the offline apps' sync cursors), counters kept by
// triggers, sequences. The copy is one transaction: the target ends with all the rows or none.
//
// How: rows travel as row_to_json text (never parsed in JavaScript: bigint, timestamps to the
// microsecond, bytea, arrays and json keep their exact form) into json_populate_recordset, with the
// generated columns left to PostgreSQL. The triggers that stamp change_seq and keep review_groups'
// counts are disabled for the copy (the counts and stamps come with the rows), and the foreign keys
// are made deferrable for it, so rows go in table by table in any order (tables reference each
// other, some themselves) and are all checked at the commit. Both are put back afterwards, whatever
// happens.
import type pg from 'pg';
import type { Database } from '../db/client';

/** Rows per INSERT: a few MB of JSON at most for the widest tables. */
const BATCH_ROWS = 500;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface RowCounts {
  /** Table name → rows. */
  tables: Record<string, number>;
  /** Sequence name → last value (text, as bigint). */
  sequences: Record<string, string>;
}

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

const TABLES_SQL = `SELECT table_name AS name FROM information_schema.tables
  WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;

async function tableNames(query: Query): Promise<string[]> {
  return (await query<{ name: string }>(TABLES_SQL)).map((r) => r.name);
}

/** Rows of every table and the state of every sequence. */
export async function countRows(query: Query): Promise<RowCounts> {
  const tables: Record<string, number> = {};
  for (const t of await tableNames(query)) {
    const [row] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ident(t)}`);
    tables[t] = Number(row.n);
  }
  return { tables, sequences: await sequenceStates(query) };
}

/** Sequence name → its last value, '' when never used. */
async function sequenceStates(query: Query): Promise<Record<string, string>> {
  const sequences: Record<string, string> = {};
  const seqs = await query<{ name: string }>(
    `SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`,
  );
  for (const { name } of seqs) {
    const [row] = await query<{ v: string; called: boolean }>(
      `SELECT last_value::text AS v, is_called AS called FROM ${ident(name)}`,
    );
    sequences[name] = row.called ? row.v : '';
  }
  return sequences;
}

/** The tables holding rows (a new database holds none: the migrations insert no rows). */
export function nonEmpty(counts: RowCounts): string[] {
  return Object.entries(counts.tables)
    .filter(([, n]) => n > 0)
    .map(([t]) => t);
}

export const sourceQuery =
  (db: Database): Query =>
  (text, params) =>
    db.query(text, params);

export const pgQuery =
  (client: pg.Client): Query =>
  async <T>(text: string, params?: unknown[]) =>
    (await client.query(text, params)).rows as T[];

/** Copies every row of `source` into the empty, migrated PostgreSQL database of `client`. */
export async function copyRows(source: Database, client: pg.Client): Promise<void> {
  const target = pgQuery(client);
  const tables = await tableNames(target);
  const sourceTables = await tableNames(sourceQuery(source));
  const differ = [
    ...tables.filter((t) => !sourceTables.includes(t)),
    ...sourceTables.filter((t) => !tables.includes(t)),
  ];
  if (differ.length) throw new Error(`The two databases have different tables: ${differ.join(', ')}`);

  const fks = await target<{ tbl: string; name: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name FROM pg_constraint c
     JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE c.contype = 'f' AND n.nspname = 'public' AND NOT c.condeferrable`,
  );
  const alter = async (deferrable: boolean) => {
    await client.query('BEGIN');
    for (const fk of fks)
      await client.query(
        `ALTER TABLE ${fk.tbl} ALTER CONSTRAINT ${ident(fk.name)} ${deferrable ? 'DEFERRABLE INITIALLY DEFERRED' : 'NOT DEFERRABLE'}`,
      );
    for (const t of tables)
      await client.query(`ALTER TABLE ${ident(t)} ${deferrable ? 'DISABLE' : 'ENABLE'} TRIGGER USER`);
    await client.query('COMMIT');
  };

  await alter(true);
  try {
    await client.query('BEGIN');
    try {
      await client.query('SET CONSTRAINTS ALL DEFERRED');
      for (const t of tables) await copyTable(source, target, t);
      await copySequences(source, target);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await alter(false);
  }
}

async function copyTable(source: Database, target: Query, table: string): Promise<void> {
  const cols = (
    await target<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
       ORDER BY ordinal_position`,
      [table],
    )
  ).map((r) => ident(r.name));
  const list = cols.join(', ');
  const insert = `INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
    SELECT ${list} FROM json_populate_recordset(NULL::${ident(table)}, $1::json)`;
  // A cursor on the embedded database (one session: the transaction holds across the calls).
  await source.exec('BEGIN READ ONLY');
  try {
    await source.exec(
      `DECLARE move_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(table)} t`,
    );
    for (;;) {
      const rows = await source.query<{ j: string }>(`FETCH ${BATCH_ROWS} FROM move_rows`);
      if (!rows.length) break;
      await target(insert, [`[${rows.map((r) => r.j).join(',')}]`]);
    }
  } finally {
    await source.exec('COMMIT');
  }
}

async function copySequences(source: Database, target: Query): Promise<void> {
  for (const [name, value] of Object.entries(await sequenceStates(sourceQuery(source))))
    if (value) await target(`SELECT setval($1, $2::bigint, true)`, [ident(name), value]);
}

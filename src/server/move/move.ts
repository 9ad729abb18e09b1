// Moves an embedded install (PGlite in DATA_DIR/db, files in DATA_DIR/files) to PostgreSQL and an
// S3 bucket, so a lab that outgrows one machine keeps its data (docs/deploy.md). Refuses a target
// database holding any row before anything is copied. Files go first (a run that stopped half way is
// simply run again: files already there with their size are skipped), then the rows in one
// transaction, then both are counted on each side. The embedded install is only read.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/client';
import type { FileStorage } from '../storage';
import { copyRows, countRows, nonEmpty, pgQuery, sourceQuery, type RowCounts } from './copy-rows';

export interface MoveOptions {
  /** The embedded install's DATA_DIR. */
  dataDir: string;
  /** The new, empty PostgreSQL database. */
  databaseUrl: string;
  /** Where the files go (the S3_* bucket); without it they stay in DATA_DIR/files. */
  storage?: FileStorage;
  log?: (line: string) => void;
}

export interface MoveResult {
  rows: RowCounts;
  files: number;
  bytes: number;
  /** Uploads still in progress, not moved (their tus resources are files of the local store). */
  unfinishedUploads: number;
}

/** A reason not to move, for the person running the command (no stack trace). */
export class MoveRefused extends Error {}

/** Keys of the stored files (every file under DATA_DIR/files but the uploads in progress), by size. */
function storedFiles(root: string): Map<string, number> {
  const files = new Map<string, number>();
  if (!fs.existsSync(root)) return files;
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const key = path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    if (key.startsWith('uploads/')) continue;
    files.set(key, fs.statSync(path.join(e.parentPath, e.name)).size);
  }
  return files;
}

export async function moveEmbedded(opts: MoveOptions): Promise<MoveResult> {
  const log = opts.log ?? (() => undefined);
  const dbDir = path.join(opts.dataDir, 'db');
  if (!/^postgres(ql)?:\/\//.test(opts.databaseUrl))
    throw new MoveRefused('DATABASE_URL must be the postgres:// URL of the new, empty database.');
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION')))
    throw new MoveRefused(`There is no embedded database in ${dbDir}: set DATA_DIR to the install's folder.`);

  // The schema first (the same migrations as PGlite), then: no row may be there.
  const target = await openDatabase(opts.databaseUrl);
  let there: string[];
  try {
    there = nonEmpty(await countRows(sourceQuery(target)));
  } finally {
    await target.close();
  }
  if (there.length)
    throw new MoveRefused(
      `The target database is not empty (${there.slice(0, 5).join(', ')}${there.length > 5 ? ', …' : ''} hold rows). Move into a new, empty database.`,
    );

  const root = path.join(opts.dataDir, 'files');
  const files = storedFiles(root);
  let bytes = 0;
  if (opts.storage) {
    let done = 0;
    for (const [key, size] of files) {
      if ((await opts.storage.size(key)) !== size)
        await opts.storage.putFile(key, path.join(root, ...key.split('/')));
      bytes += size;
      if (++done % 100 === 0) log(`files: ${done} of ${files.size}`);
    }
    for (const [key, size] of files) {
      const stored = await opts.storage.size(key);
      if (stored !== size)
        throw new Error(`The file ${key} has ${stored ?? 'no'} bytes in the bucket, ${size} here.`);
    }
    log(`files: ${files.size} in the bucket (${(bytes / 1e9).toFixed(2)} GB), sizes checked`);
  } else log(`files: left in ${root} (S3_BUCKET is not set)`);

  const source = await openDatabase(dbDir);
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    await copyRows(source, client);
    const [from, to] = [await countRows(sourceQuery(source)), await countRows(pgQuery(client))];
    for (const [table, n] of Object.entries(from.tables))
      if (to.tables[table] !== n)
        throw new Error(`The table ${table} has ${to.tables[table]} rows in PostgreSQL, ${n} in PGlite.`);
    for (const [name, v] of Object.entries(from.sequences))
      if (to.sequences[name] !== v)
        throw new Error(`The sequence ${name} is at ${to.sequences[name]}, not ${v}.`);
    const rows = Object.values(from.tables).reduce((a, b) => a + b, 0);
    log(`rows: ${rows} in ${Object.keys(from.tables).length} tables, counts checked`);
    const uploadsDir = path.join(root, 'uploads');
    const unfinishedUploads = fs.existsSync(uploadsDir)
      ? fs.readdirSync(uploadsDir).filter((n) => !n.endsWith('.json')).length
      : 0;
    if (unfinishedUploads)
      log(`uploads in progress not moved: ${unfinishedUploads} (they are started again from the browser)`);
    return { rows: to, files: opts.storage ? files.size : 0, bytes, unfinishedUploads };
  } finally {
    await client.end();
    await source.close();
  }
}

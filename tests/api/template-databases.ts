// Migrated template databases for the API tests. Every test file starts the app on a new database;
// creating a PGlite cluster and applying every migration to it costs seconds of CPU each time, so
// each migration set is applied once — to a PGlite data directory kept as a tarball in the temporary
// folder, and to a PostgreSQL template database — and each test database starts as a copy of it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/client';

const migrationsDir = path.resolve(import.meta.dirname, '../../src/server/db/migrations');

/** Names the migration set: a changed or added migration gets new templates. */
function migrationsHash(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(`${path.relative(migrationsDir, full)}\0`).update(fs.readFileSync(full));
    }
  };
  walk(migrationsDir);
  return hash.digest('hex').slice(0, 12);
}

let pgliteDump: Promise<Blob> | undefined;

/** A migrated PGlite data directory, made once per migration set and shared by the test processes. */
export function pgliteTemplate(): Promise<Blob> {
  pgliteDump ??= (async () => {
    const file = path.join(os.tmpdir(), `tessera-pglite-template-${migrationsHash()}.tar`);
    if (!fs.existsSync(file)) {
      const database = await openDatabase('memory://');
      const dump = await database.dumpDataDir!();
      await database.close();
      // Written aside and renamed: another test process may be making the same file at once.
      const partial = `${file}.${process.pid}`;
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(partial, file);
    }
    return new Blob([fs.readFileSync(file)]);
  })();
  return pgliteDump;
}

let pgTemplate: Promise<string> | undefined;

/** The name of a migrated PostgreSQL template database, made once per migration set. */
export function postgresTemplate(adminUrl: string): Promise<string> {
  pgTemplate ??= (async () => {
    const name = `tessera_template_${migrationsHash()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      // Built under a name of its own and renamed when complete, so no process copies a half-made one.
      const building = `tessera_template_build_${crypto.randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase(url.toString());
      await database.close();
      try {
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch {
        // Another test process finished the same template first.
        await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return pgTemplate;
}

// `npm run move-to-postgres` (src/server/move): an embedded install (PGlite in DATA_DIR/db, files on
// disk) with a lab, slides, reviews (their groups kept by a trigger) and stored files is moved into a
// fresh PostgreSQL database (created and dropped here) and an S3 server (s3rver): every table's rows
// arrive identical (change_seq stamps and trigger-kept counts included), sequences go on from where
// they were, triggers and foreign keys are back as they were, every file is in the bucket with its
// bytes (a big one in parts), an upload in progress is left out, and a second run refuses.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { moveEmbedded, MoveRefused } from '../../src/server/move/move';
import { S3Storage, s3ConfigFromEnv } from '../../src/server/storage/s3';
import {
  ADMIN,
  PG_ADMIN_URL,
  addMember,
  addOrganization,
  bearer,
  dbTargets,
  insertImageRow,
  memberToken,
} from './helpers';
import { startS3, type TestS3 } from './s3-server';
import { pgliteTemplate } from './template-databases';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const MiB = 1024 * 1024;
const postgres = (await dbTargets()).some((t) => t.name === 'postgres');

/** Every table's rows as one digest each (generated columns included: they must come out the same). */
async function fingerprints(query: (text: string) => Promise<Array<Record<string, unknown>>>) {
  const tables = await query(
    `SELECT table_name AS t FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { t } of tables) {
    const [row] = await query(
      `SELECT count(*)::int || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS d FROM "${String(t)}" x`,
    );
    out[String(t)] = String(row.d);
  }
  return out;
}

describe.skipIf(!postgres)('moving an embedded install to PostgreSQL and S3', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-move-'));
  const dbName = `tessera_move_${crypto.randomBytes(5).toString('hex')}`;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  let s3: TestS3;
  let storage: S3Storage;
  let before: Record<string, string>;
  const files: Record<string, Buffer> = {};

  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    // The embedded install, made through the app as a lab would: people, slides, two reviews.
    const config = loadConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist') });
    const database = await openDatabase(path.join(dataDir, 'db'), { pgliteDump: await pgliteTemplate() });
    const app = await buildApp({ config, database });
    await bootstrap(app.ctx.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password });
    await app.ready();
    const lab = await addOrganization(app, { name: 'Lab' });
    const requester = await memberToken(app, {
      email: 'requester@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationReview'],
    });
    const slide = await insertImageRow(app, { organizationId: lab, simpleId: 'S-1' });
    const other = await insertImageRow(app, { organizationId: lab, simpleId: 'S-2' });
    const group = crypto.randomUUID();
    for (const email of ['reviewer1@lab.test', 'reviewer2@lab.test']) {
      const reviewerId = await addMember(app, { email, organizationId: lab });
      const res = await app.inject({
        method: 'POST',
        url: '/v2/reviews',
        headers: bearer(requester.token),
        payload: { review: { reviewGroupUUID: group, imageId: slide.imageId, reviewerId } },
      });
      expect(res.statusCode).toBe(200);
    }
    // Stored files: a slide, and one bigger than a part (stored in parts), plus an upload in progress.
    files[`images/${slide.imageId}/RGB-8bit.czi`] = fs.readFileSync(path.join(FIXTURES, 'czi/RGB-8bit.czi'));
    files[`images/${other.imageId}/big.czi`] = crypto.randomBytes(11 * MiB + 7);
    for (const [key, bytes] of Object.entries(files)) {
      const to = path.join(dataDir, 'files', ...key.split('/'));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, bytes);
    }
    fs.mkdirSync(path.join(dataDir, 'files', 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', 'uploads', 'abc123'), 'half an upload');
    fs.writeFileSync(path.join(dataDir, 'files', 'uploads', 'abc123.json'), '{}');
    before = await fingerprints((text) => database.query(text));
    await app.close();
    await database.close();

    s3 = await startS3();
    storage = new S3Storage(s3ConfigFromEnv(s3.env)!, 0, {}, 5 * MiB);
    await admin(`CREATE DATABASE ${dbName}`);
  }, 240_000);

  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('moves every row and file, checks the counts, and puts triggers and keys back', async () => {
    const lines: string[] = [];
    const started = performance.now();
    const result = await moveEmbedded({ dataDir, databaseUrl, storage, log: (l) => lines.push(l) });
    console.log(`moved in ${Math.round(performance.now() - started)} ms:\n${lines.join('\n')}`);
    expect(result.files).toBe(2);
    expect(result.unfinishedUploads).toBe(1);
    expect(lines.join('\n')).toMatch(/rows: \d+ in \d+ tables, counts checked/);

    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      const query = async (text: string) => (await c.query(text)).rows as Array<Record<string, unknown>>;
      const after = await fingerprints(query);
      expect(after).toEqual(before);
      expect(before.reviews.startsWith('2:')).toBe(true);
      expect(before.review_groups.startsWith('1:')).toBe(true);

      // The triggers are on again and the change_seq sequence goes on past every copied stamp.
      const [{ max }] = await query(`SELECT max(change_seq)::text AS max FROM organizations`);
      await query(`UPDATE organizations SET name = name || ' (moved)' WHERE parent_id IS NULL`);
      const [{ min }] = await query(
        `SELECT min(change_seq)::text AS min FROM organizations WHERE name LIKE '% (moved)'`,
      );
      expect(BigInt(String(min))).toBeGreaterThan(BigInt(String(max)));
      const [{ n }] = await query(
        `SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND condeferrable`,
      );
      expect(n).toBe(0);
    } finally {
      await c.end();
    }

    for (const [key, bytes] of Object.entries(files)) {
      const chunks: Buffer[] = [];
      for await (const chunk of (await storage.stream(key)) as Readable) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes), key).toBe(true);
    }
    expect(await storage.list('uploads/')).toEqual([]);
    expect(await s3.pendingMultipartUploads()).toEqual([]);
  });

  it('refuses a target database that holds rows, and a folder without an embedded database', async () => {
    const again = moveEmbedded({ dataDir, databaseUrl, storage });
    await expect(again).rejects.toBeInstanceOf(MoveRefused);
    await expect(again).rejects.toThrow(
      /^The target database is not empty \(.*\)\. Move into a new, empty database\.$/,
    );
    await expect(moveEmbedded({ dataDir: os.tmpdir(), databaseUrl, storage })).rejects.toThrow(
      /There is no embedded database in/,
    );
  });
});

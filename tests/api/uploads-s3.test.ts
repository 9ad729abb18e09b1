// The tus endpoint and processing with the S3 store (S3_* set), against an S3-compatible server on a
// free port (tests/api/s3-server.ts): chunks with checksums into a multipart upload, a wrong checksum
// storing nothing, resume from HEAD after a restart, termination and the expiry job freeing the parts,
// an .mrxs group assembled in the bucket, and processing of the finished images to completed with tiles.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { images, scanGroups, uploadGroups, uploads } from '../../src/server/db/schema';
import { enqueue } from '../../src/server/jobs/queue';
import { forgetStorage, type FileStorage } from '../../src/server/storage';
import { EXPIRE_UPLOADS } from '../../src/server/uploads/expiry-job';
import { uploadRuntime } from '../../src/server/uploads/runtime';
import { addLabFixture, bearer, dbTargets, startApp, type LabFixture, type TestApp } from './helpers';
import { startS3, type TestS3 } from './s3-server';
import { sha1, sha256, tusClient } from './uploads-tus';

const FIXTURES = path.resolve(process.cwd(), '../shared/fixtures');
const MiB = 1024 * 1024;
const [target] = await dbTargets();

describe(`tus uploads into S3 on ${target.name}`, () => {
  let s3: TestS3;
  let t: TestApp;
  let lab: LabFixture;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    s3 = await startS3();
    Object.assign(process.env, s3.env, {
      UPLOAD_MAX_BYTES: String(64 * MiB),
      UPLOAD_CLEANUP_MINUTES: '0',
    });
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(async () => {
    await t?.close();
    forgetStorage(t.dataDir);
    process.env = savedEnv;
    await s3?.close();
  });

  const client = () => tusClient(t.app, lab.member.token);
  const storage = (): FileStorage => uploadRuntime(t.app).deps.storage;
  const read = async (key: string) => {
    const chunks: Buffer[] = [];
    for await (const c of (await storage().stream(key)) as Readable) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const uploadKeys = async (id: string) =>
    (await storage().list('uploads/')).filter((k) => k.startsWith(`uploads/${id}`));
  const groupOf = async (partId: string) => {
    const [part] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, partId));
    const [group] = await t.app.ctx.db.select().from(uploadGroups).where(eq(uploadGroups.id, part.groupId));
    return group;
  };

  it('stores chunks in the bucket, refuses a wrong checksum, resumes from HEAD after a restart', async () => {
    expect(storage().kind).toBe('s3');
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'uploads'))).toBe(false);
    const bytes = crypto.randomBytes(13 * MiB + 12_345);
    const chunk = 3 * MiB;
    const tus = client();
    const { res, location, id } = await tus.create({ filename: 'big.czi', size: bytes.length });
    expect(res.statusCode).toBe(201);
    expect(res.headers['upload-expires']).toBeTruthy();
    expect((await tus.patch(location!, 0, bytes.subarray(0, chunk))).statusCode).toBe(204);

    // A wrong checksum: 460, and the bucket holds what it held before (the 3 MiB tail, no part).
    const before = await uploadKeys(id!);
    const bad = await tus.patch(location!, chunk, bytes.subarray(chunk, 2 * chunk), sha1(Buffer.from('x')));
    expect(bad.statusCode).toBe(460);
    expect((await tus.head(location!)).headers['upload-offset']).toBe(String(chunk));
    expect(await uploadKeys(id!)).toEqual(before);
    expect(await storage().size(`uploads/${id}.part`)).toBe(chunk);
    const [multipart] = await s3.pendingMultipartUploads();
    expect(multipart).toBeTruthy();

    // Good chunks again: 6 MiB in, a real part of the multipart upload now.
    expect((await tus.patch(location!, chunk, bytes.subarray(chunk, 2 * chunk))).statusCode).toBe(204);
    expect(await storage().size(`uploads/${id}.part`)).toBeUndefined();

    // A new process (nothing cached): the offset comes from the bucket, and the client goes on from it.
    await t.app.close();
    forgetStorage(t.dataDir);
    t.app = await buildApp({ config: t.config, database: t.app.ctx.database });
    await t.app.ready();
    const again = client();
    const head = await again.head(location!);
    expect(head.statusCode).toBe(200);
    let offset = Number(head.headers['upload-offset']);
    expect(offset).toBe(2 * chunk);
    while (offset < bytes.length) {
      const res = await again.patch(location!, offset, bytes.subarray(offset, offset + chunk));
      expect(res.statusCode).toBe(204);
      offset = Number(res.headers['upload-offset']);
    }
    expect(offset).toBe(bytes.length);

    const group = await groupOf(id!);
    expect(group.status).toBe('complete');
    const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, group.imageId!));
    expect(image.storageKey).toBe(`images/${image.id}/big.czi`);
    expect(sha256(await read(image.storageKey!))).toBe(sha256(bytes));
    // The original downloads through its signed link straight from the bucket, whole or by range.
    const link = await t.app.inject({
      method: 'GET',
      url: `/v2/images/${image.id}/download-url`,
      headers: bearer(lab.superAdmin.token),
    });
    expect(link.statusCode).toBe(200);
    const filePath = new URL(link.json().url, 'http://localhost').pathname;
    const whole = await t.app.inject({ method: 'GET', url: filePath });
    expect(whole.statusCode).toBe(200);
    expect(sha256(whole.rawPayload)).toBe(sha256(bytes));
    const part = await t.app.inject({ method: 'GET', url: filePath, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(Buffer.from(bytes.subarray(100, 200)))).toBe(true);
    // The upload's objects and its multipart upload are gone; nothing was written to the local disk.
    expect(await uploadKeys(id!)).toEqual([]);
    expect(await s3.pendingMultipartUploads()).toEqual([]);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'images'))).toBe(false);
    // Finished: HEAD still answers the full offset.
    expect((await again.head(location!)).headers['upload-offset']).toBe(String(bytes.length));
  });

  it('terminates: the multipart upload is aborted and every object of the upload removed', async () => {
    const tus = client();
    const bytes = crypto.randomBytes(7 * MiB);
    const { location, id } = await tus.create({ filename: 'gone.qptiff', size: bytes.length });
    expect((await tus.patch(location!, 0, bytes.subarray(0, 6 * MiB))).statusCode).toBe(204);
    expect((await tus.patch(location!, 6 * MiB, bytes.subarray(6 * MiB, 6 * MiB + 1000))).statusCode).toBe(
      204,
    );
    expect(await s3.pendingMultipartUploads()).toHaveLength(1);
    expect(await uploadKeys(id!)).toEqual([`uploads/${id}.info`, `uploads/${id}.part`]);
    expect((await tus.remove(location!)).statusCode).toBe(204);
    expect(await s3.pendingMultipartUploads()).toEqual([]);
    expect(await uploadKeys(id!)).toEqual([]);
    expect((await tus.head(location!)).statusCode).toBe(410);
  });

  it('expires an abandoned upload through the job: its parts and objects go, a fresh one stays', async () => {
    const tus = client();
    const bytes = crypto.randomBytes(6 * MiB + 1000);
    const old = await tus.create({ filename: 'abandoned.czi', size: bytes.length + 10 });
    const fresh = await tus.create({ filename: 'fresh.czi', size: bytes.length + 10 });
    for (const u of [old, fresh]) {
      expect((await tus.patch(u.location!, 0, bytes.subarray(0, 6 * MiB))).statusCode).toBe(204);
      expect((await tus.patch(u.location!, 6 * MiB, bytes.subarray(6 * MiB))).statusCode).toBe(204);
    }
    expect(await s3.pendingMultipartUploads()).toHaveLength(2);
    await t.app.ctx.db
      .update(uploads)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(uploads.id, old.id!));
    await enqueue(t.app.ctx.db, EXPIRE_UPLOADS, {});
    await t.app.ctx.jobs.drain();
    expect(await uploadKeys(old.id!)).toEqual([]);
    expect(await s3.pendingMultipartUploads()).toHaveLength(1);
    expect((await tus.head(old.location!)).statusCode).toBe(410);
    expect(await uploadKeys(fresh.id!)).toEqual([`uploads/${fresh.id}.info`, `uploads/${fresh.id}.part`]);
    expect((await tus.head(fresh.location!)).headers['upload-offset']).toBe(String(bytes.length));
    expect((await tus.patch(fresh.location!, bytes.length, Buffer.alloc(10))).statusCode).toBe(204);
    expect(await s3.pendingMultipartUploads()).toEqual([]);
  });

  it('assembles an .mrxs group in the bucket and processes it, and a QPTIFF, to completed with tiles', async () => {
    const tus = client();
    const slideIds: Record<string, string> = {};
    for (const simpleId of ['FIXTURE-MX-0001', 'FIXTURE-QP-0002']) {
      slideIds[simpleId] = crypto.randomUUID();
      await t.app.ctx.db
        .insert(scanGroups)
        .values({ id: slideIds[simpleId], simpleId, organizationId: lab.orgs.teamA });
    }
    const groupId = crypto.randomUUID();
    const names = ['slide.mrxs', 'slide/Slidedat.ini', 'slide/Index.dat', 'slide/Data0000.dat'];
    let lastPart = '';
    for (const rel of names) {
      const done = await tus.upload({
        filename: path.basename(rel),
        relativePath: rel,
        groupId,
        groupSize: names.length,
        bytes: fs.readFileSync(path.join(FIXTURES, 'mrxs', rel)),
        chunk: 64 * 1024,
      });
      lastPart = done.id!;
    }
    const mrxsGroup = await groupOf(lastPart);
    expect(mrxsGroup.status).toBe('complete');
    const mrxsId = mrxsGroup.imageId!;
    expect(await storage().list(`images/${mrxsId}/`)).toEqual(
      names.map((n) => `images/${mrxsId}/${n}`).sort(),
    );
    for (const rel of names)
      expect(sha256(await read(`images/${mrxsId}/${rel}`))).toBe(
        sha256(fs.readFileSync(path.join(FIXTURES, 'mrxs', rel))),
      );

    const qp = await tus.upload({
      filename: 'brightfield.qptiff',
      bytes: fs.readFileSync(path.join(FIXTURES, 'qptiff/brightfield.qptiff')),
      chunk: 128 * 1024,
    });
    const qpId = (await groupOf(qp.id!)).imageId!;

    await t.app.ctx.jobs.drain();
    for (const [imageId, simpleId] of [
      [mrxsId, 'FIXTURE-MX-0001'],
      [qpId, 'FIXTURE-QP-0002'],
    ]) {
      const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, imageId));
      expect(image.status, JSON.stringify(image.info)).toBe('completed');
      expect(image.scanGroupId).toBe(slideIds[simpleId]);
      const get = (url: string) =>
        t.app.inject({ method: 'GET', url, headers: bearer(lab.superAdmin.token) });
      const manifest = (await get(`/v2/images/${imageId}/tiles/layers.json`)).json();
      expect(manifest.layers).toHaveLength(1);
      const maxLevel = Math.ceil(Math.log2(Math.max(manifest.width, manifest.height)));
      const tile = await get(
        `/v2/images/${imageId}/tiles/${manifest.layers[0].name}_files/${maxLevel}/0_0.jpeg`,
      );
      expect(tile.statusCode).toBe(200);
    }
    // The readers read the bucket by range: the originals were never on the local disk, not even a
    // temporary copy (tests/api/processing-s3-ranged.test.ts watches for one).
    expect(fs.existsSync(path.join(t.dataDir, 'tmp'))).toBe(false);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'images'))).toBe(false);
  });
});

// /v2/uploads (tus 1.0): creation with its checks, chunks with checksums, offsets, termination, the
// .mrxs group assembly, expiry, a restart mid-upload, ownership and permission; on PGlite and PostgreSQL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MemoryLocker } from '@tus/server';
import { UploadText } from '../../src/api/messages';
import { UploadOwnText } from '../../src/api/uploads';
import { buildApp } from '../../src/server/app';
import { images, jobs, uploadGroups, uploads } from '../../src/server/db/schema';
import { PgLocker } from '../../src/server/uploads/pg-locker';
import { uploadRuntime } from '../../src/server/uploads/runtime';
import { addLabFixture, bearer, dbTargets, startApp, type LabFixture, type TestApp } from './helpers';
import { sha1, sha256, TUS, tusClient } from './uploads-tus';

const FIXTURES = path.resolve(process.cwd(), '../shared/fixtures');
const targets = await dbTargets();

describe.each(targets)('tus uploads on $name', (target) => {
  let t: TestApp;
  let lab: LabFixture;
  let files: string;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    process.env.UPLOAD_MAX_BYTES = String(64 * 1024 * 1024);
    process.env.UPLOAD_CLEANUP_MINUTES = '0';
    t = await startApp(target);
    lab = await addLabFixture(t.app);
    files = path.join(t.dataDir, 'files');
  });
  afterAll(async () => {
    process.env = savedEnv;
    await t.close();
  });

  const client = () => tusClient(t.app, lab.member.token);
  const uploadDirEntries = () => fs.readdirSync(path.join(files, 'uploads'));
  const random = (n: number) => crypto.randomBytes(n);

  it('creates, takes chunks with checksums, reports the offset, and makes the image when complete', async () => {
    const bytes = fs.readFileSync(path.join(FIXTURES, 'czi/DAPI_GFP.czi'));
    const tus = client();
    const { res, location, id } = await tus.create({ filename: 'DAPI_GFP.czi', size: bytes.length });
    expect(res.statusCode).toBe(201);
    expect(location).toMatch(/^\/v2\/uploads\/[0-9a-f]{32}$/);
    expect(res.headers['upload-expires']).toBeTruthy();

    const half = 300_000;
    const first = await tus.patch(location!, 0, bytes.subarray(0, half));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(half));
    const head = await tus.head(location!);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(head.headers['upload-length']).toBe(String(bytes.length));

    const last = await tus.patch(location!, half, bytes.subarray(half));
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-offset']).toBe(String(bytes.length));

    const [part] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, id!));
    expect(part.status).toBe('complete');
    const [group] = await t.app.ctx.db.select().from(uploadGroups).where(eq(uploadGroups.id, part.groupId));
    expect(group.status).toBe('complete');
    const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, group.imageId!));
    expect(image).toMatchObject({
      name: 'DAPI_GFP.czi',
      status: 'created',
      storageStatus: 'active',
      imageType: 'real',
      organizationId: lab.orgs.teamA,
      creatorUserId: lab.member.id,
      storageKey: `images/${image.id}/DAPI_GFP.czi`,
    });
    expect(image.info.size).toBe(bytes.length);
    expect(image.info.uploadStart && image.info.uploadEnd).toBeTruthy();
    const stored = fs.readFileSync(path.join(files, image.storageKey!));
    expect(sha256(stored)).toBe(sha256(bytes));
    expect(uploadDirEntries()).not.toContain(id);
    const queued = await t.app.ctx.db.select().from(jobs).where(eq(jobs.kind, 'process-image'));
    expect(queued.map((j) => j.payload.imageId)).toContain(image.id);

    // Finished: HEAD still answers with the full offset, a PATCH is a conflict the client recovers from.
    const after = await tus.head(location!);
    expect(after.statusCode).toBe(200);
    expect(after.headers['upload-offset']).toBe(String(bytes.length));
    expect((await tus.patch(location!, 0, Buffer.from('x'))).statusCode).toBe(409);

    const status = await t.app.inject({
      method: 'GET',
      url: `/v2/upload-groups/${group.id}`,
      headers: bearer(lab.member.token),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json().result).toMatchObject({
      status: 'complete',
      name: 'DAPI_GFP.czi',
      image: { id: image.id, status: 'created', scanGroupId: null },
    });
  });

  it('refuses a chunk with a wrong checksum and keeps the offset', async () => {
    const tus = client();
    const bytes = random(100_000);
    const { location, id } = await tus.create({ filename: 'a.qptiff', size: bytes.length });
    expect((await tus.patch(location!, 0, bytes.subarray(0, 40_000))).statusCode).toBe(204);
    const bad = await tus.patch(
      location!,
      40_000,
      bytes.subarray(40_000, 80_000),
      sha1(Buffer.from('other')),
    );
    expect(bad.statusCode).toBe(460);
    expect((await tus.head(location!)).headers['upload-offset']).toBe('40000');
    expect(fs.statSync(path.join(files, 'uploads', id!)).size).toBe(40_000);
    const malformed = await t.app.inject({
      method: 'PATCH',
      url: location!,
      headers: {
        ...bearer(lab.member.token),
        ...TUS,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '40000',
        'upload-checksum': 'md5 AAAA',
      },
      payload: bytes.subarray(40_000),
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('Unsupported checksum algorithm: md5');
    expect((await tus.patch(location!, 40_000, bytes.subarray(40_000))).statusCode).toBe(204);
  });

  it('stores chunks of many blocks at offsets off the disk blocks exactly, a refused one between them', async () => {
    // The server writes whole 4 KiB-aligned blocks past the page cache (O_DIRECT) and the rest through
    // it; a chunk starting inside a block rewrites that block's first bytes from the file.
    const tus = client();
    const bytes = random(5 * 1024 * 1024 + 1234);
    const { location, id } = await tus.create({ filename: 'aligned.czi', size: bytes.length });
    const cuts = [0, 2_000_003, 2_000_004, 4_500_000, bytes.length];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const chunk = bytes.subarray(cuts[i], cuts[i + 1]);
      if (i === 2) {
        const bad = await tus.patch(location!, cuts[i], chunk, sha1(random(8)));
        expect(bad.statusCode).toBe(460);
        expect(fs.statSync(path.join(files, 'uploads', id!)).size).toBe(cuts[i]);
      }
      const res = await tus.patch(location!, cuts[i], chunk);
      expect(res.statusCode).toBe(204);
      expect(res.headers['upload-offset']).toBe(String(cuts[i + 1]));
    }
    const [part] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, id!));
    const [group] = await t.app.ctx.db.select().from(uploadGroups).where(eq(uploadGroups.id, part.groupId));
    const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, group.imageId!));
    expect(sha256(fs.readFileSync(path.join(files, image.storageKey!)))).toBe(sha256(bytes));
  });

  it('answers a PATCH at a wrong offset with 409 and changes nothing', async () => {
    const tus = client();
    const bytes = random(50_000);
    const { location } = await tus.create({ filename: 'b.czi', size: bytes.length });
    await tus.patch(location!, 0, bytes.subarray(0, 10_000));
    const wrong = await tus.patch(location!, 5_000, bytes.subarray(5_000, 20_000));
    expect(wrong.statusCode).toBe(409);
    expect((await tus.head(location!)).headers['upload-offset']).toBe('10000');
  });

  it('lets a second client take over an upload: the first stops with 423 and its partial chunk is dropped', async () => {
    const tus = client();
    const bytes = random(300_000);
    const { location } = await tus.create({ filename: 'c.czi', size: bytes.length });
    // The first client's body arrives in part, then stalls (a connection the server has not seen die).
    const stalled = new Readable({ read() {} });
    stalled.push(bytes.subarray(0, 100_000));
    const first = t.app
      .inject({
        method: 'PATCH',
        url: location!,
        headers: {
          ...bearer(lab.member.token),
          ...TUS,
          'content-type': 'application/offset+octet-stream',
          'content-length': String(bytes.length),
          'upload-offset': '0',
          'upload-checksum': `sha1 ${sha1(bytes)}`,
        },
        payload: stalled,
      })
      .then((res) => res); // light-my-request sends only once asked for the answer
    const id = location!.split('/').pop()!;
    // The first holds the lock: in this process's map (PGlite) or as an advisory lock (PostgreSQL).
    const locker = uploadRuntime(t.app).locker;
    const held = () =>
      locker instanceof PgLocker ? locker.holders.has(id) : (locker as MemoryLocker).locks.has(id);
    while (!held()) await new Promise((r) => setTimeout(r, 10));
    const second = await tus.patch(location!, 0, bytes);
    expect(second.statusCode).toBe(204);
    expect(second.headers['upload-offset']).toBe(String(bytes.length));
    expect((await first).statusCode).toBe(423);
    stalled.destroy();
    const [part] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, id));
    expect(part.status).toBe('complete');
  });

  it('terminates: the bytes are freed and the upload is gone', async () => {
    const tus = client();
    const bytes = random(60_000);
    const { location, id } = await tus.create({ filename: 'c.czi', size: bytes.length });
    await tus.patch(location!, 0, bytes.subarray(0, 30_000));
    expect(uploadDirEntries()).toContain(id);
    const del = await tus.remove(location!);
    expect(del.statusCode).toBe(204);
    expect(uploadDirEntries().filter((f) => f.startsWith(id!))).toEqual([]);
    const [part] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, id!));
    expect(part.status).toBe('canceled');
    expect((await tus.head(location!)).statusCode).toBe(410);
    expect((await tus.patch(location!, 30_000, bytes.subarray(30_000))).statusCode).toBe(410);
  });

  it('refuses other files before a byte is stored', async () => {
    const tus = client();
    const before = uploadDirEntries().length;
    const [parts] = [await t.app.ctx.db.select().from(uploads)];
    for (const filename of ['notes.txt', 'slide.svs', 'Data0000.dat', 'noextension']) {
      const { res } = await tus.create({ filename, size: 10 });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toBe(UploadText.incompatibleFormat);
    }
    const alone = await tus.create({ filename: 'slide.mrxs', size: 10 });
    expect(alone.res.statusCode).toBe(415);
    expect(alone.res.json().message).toBe(UploadOwnText.mrxsNeedsFolder);
    const big = await tus.create({ filename: 'big.czi', size: 64 * 1024 * 1024 + 1 });
    expect(big.res.statusCode).toBe(413);
    expect(big.res.json().message).toBe(UploadOwnText.tooLarge('64 MiB'));
    const path1 = await tus.create({ filename: '../x.czi', size: 10 });
    expect(path1.res.statusCode).toBe(400);
    expect(path1.res.json().message).toBe('metadata.filename: must be a file name, not a path');
    expect(uploadDirEntries().length).toBe(before);
    expect(await t.app.ctx.db.select().from(uploads)).toHaveLength(parts.length);
  });

  it('assembles an .mrxs folder uploaded as one group', async () => {
    const tus = client();
    const groupId = crypto.randomUUID();
    const names = ['slide.mrxs', 'slide/Slidedat.ini', 'slide/Index.dat', 'slide/Data0000.dat'];
    for (const rel of names) {
      const bytes = fs.readFileSync(path.join(FIXTURES, 'mrxs', rel));
      const done = await tus.upload({
        filename: path.basename(rel),
        relativePath: rel,
        groupId,
        groupSize: names.length,
        bytes,
        chunk: 64 * 1024,
      });
      const [g] = await t.app.ctx.db.select().from(uploadGroups).where(eq(uploadGroups.id, groupId));
      expect(g.status).toBe(rel === names[names.length - 1] ? 'complete' : 'uploading');
      expect(done.last!.statusCode).toBe(204);
    }
    const [group] = await t.app.ctx.db.select().from(uploadGroups).where(eq(uploadGroups.id, groupId));
    const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, group.imageId!));
    expect(image.name).toBe('slide.mrxs');
    expect(image.storageKey).toBe(`images/${image.id}/slide.mrxs`);
    for (const rel of names)
      expect(sha256(fs.readFileSync(path.join(files, 'images', image.id, rel)))).toBe(
        sha256(fs.readFileSync(path.join(FIXTURES, 'mrxs', rel))),
      );
    // A fifth file for a full group is refused.
    const extra = await tus.create({
      filename: 'Data0001.dat',
      relativePath: 'slide/Data0001.dat',
      groupId,
      groupSize: 4,
      size: 1,
    });
    expect(extra.res.statusCode).toBe(409);
  });

  it('fails an .mrxs group without its data files, and frees its bytes', async () => {
    const tus = client();
    const groupId = crypto.randomUUID();
    const ids: string[] = [];
    for (const rel of ['slide.mrxs', 'slide/Data0000.dat']) {
      const bytes = fs.readFileSync(path.join(FIXTURES, 'mrxs', rel));
      const up = await tus.upload({
        filename: path.basename(rel),
        relativePath: rel,
        groupId,
        groupSize: 2,
        bytes,
      });
      ids.push(up.id!);
    }
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/upload-groups/${groupId}`,
      headers: bearer(lab.member.token),
    });
    expect(res.json().result).toMatchObject({
      status: 'failed',
      error: UploadOwnText.mrxsMissingData('Slidedat.ini'),
      image: null,
    });
    for (const id of ids) expect(uploadDirEntries().filter((f) => f.startsWith(id))).toEqual([]);
  });

  it('keeps uploads to their owner and needs the upload permission', async () => {
    const tus = client();
    const { location } = await tus.create({ filename: 'mine.czi', size: 100 });
    const other = tusClient(t.app, lab.qc.token);
    expect((await other.head(location!)).statusCode).toBe(404);
    expect((await other.patch(location!, 0, random(100))).statusCode).toBe(404);
    expect((await other.remove(location!)).statusCode).toBe(404);
    const denied = await other.create({ filename: 'theirs.czi', size: 100 });
    expect(denied.res.statusCode).toBe(403);
    expect(denied.res.json().message).toBe("You don't have permissions to create");
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v2/uploads',
      headers: { ...TUS, 'upload-length': '1' },
    });
    expect(anonymous.statusCode).toBe(401);
    const list = await t.app.inject({
      method: 'GET',
      url: '/v2/upload-groups',
      headers: bearer(lab.qc.token),
    });
    expect(list.json()).toMatchObject({ result: [], count: 0, page: 1 });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/v2/upload-groups?limit=2',
      headers: bearer(lab.member.token),
    });
    expect(mine.json().result).toHaveLength(2);
    expect(mine.json().count).toBeGreaterThan(2);
  });

  it('expires abandoned uploads and frees their bytes', async () => {
    const tus = client();
    const bytes = random(20_000);
    const { location, id } = await tus.create({ filename: 'left.czi', size: bytes.length });
    await tus.patch(location!, 0, bytes.subarray(0, 5_000));
    const rt = uploadRuntime(t.app);
    expect(await rt.sweep(new Date())).toBe(0);
    expect(uploadDirEntries()).toContain(id);
    const later = new Date(Date.now() + rt.settings.expiryMs + 60_000);
    expect(await rt.sweep(later)).toBeGreaterThanOrEqual(1);
    expect(uploadDirEntries().filter((f) => f.startsWith(id!))).toEqual([]);
    expect((await tus.head(location!)).statusCode).toBe(410);
  });

  it('resumes after a server restart, and finishes an upload whose last bytes were never recorded', async () => {
    const bytes = fs.readFileSync(path.join(FIXTURES, 'qptiff/brightfield.qptiff'));
    const { location, id } = await client().create({ filename: 'brightfield.qptiff', size: bytes.length });
    await client().patch(location!, 0, bytes.subarray(0, 100_000));
    await t.app.close();
    // The same database and data directory: a new process, as after `kill` and `npm start`.
    t.app = await buildApp({ config: t.config, database: t.app.ctx.database });
    await t.app.ready();
    const tus = client();
    expect((await tus.head(location!)).headers['upload-offset']).toBe('100000');
    // The rest arrives on disk but the server stops before recording it: HEAD finishes the upload.
    fs.appendFileSync(path.join(files, 'uploads', id!), bytes.subarray(100_000));
    const head = await tus.head(location!);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(bytes.length));
    const [part] = await t.app.ctx.db.select().from(uploads).where(eq(uploads.id, id!));
    const [group] = await t.app.ctx.db.select().from(uploadGroups).where(eq(uploadGroups.id, part.groupId));
    const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, group.imageId!));
    expect(sha256(fs.readFileSync(path.join(files, image.storageKey!)))).toBe(sha256(bytes));
  });
});

// What processing derives is stored through the file storage, packed per image: after processing an
// image has exactly its pyramid pack, thumbnail and label picture in storage and no tiles folder; its
// tiles are served from the pack, byte for byte what the tiler makes; with the S3 storage a second
// server (same database and bucket, another DATA_DIR) serves the same tile, thumbnail and label; a
// damaged pack answers TILE_UNREADABLE (a gap in the viewer), not a crash; loose tiles of an install
// processed before packs are still served.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TileText } from '../../src/api/tiles';
import { buildApp } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import { images, organizations } from '../../src/server/db/schema';
import { enqueue } from '../../src/server/jobs/queue';
import { forgetPack, packKey } from '../../src/server/processing/derived';
import { tilesDir } from '../../src/server/processing/files';
import { fileReader, PackIndex } from '../../src/server/processing/pack-format';
import { PROCESS_IMAGE } from '../../src/server/jobs/kinds';
import { folderSink, writePyramid } from '../../src/server/processing/tiler';
import { openSlide } from '../../src/server/slides/registry';
import { forgetStorage, storageFor } from '../../src/server/storage';
import { ADMIN, bearer, dbTargets, login, startApp, type TestApp } from './helpers';
import { startS3, type TestS3 } from './s3-server';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
/** A brightfield slide with a label picture: pack, thumbnail and label. */
const FIXTURE = 'qptiff/brightfield.qptiff';
const [target] = await dbTargets();

/** Every file of a folder, by its '/'-separated path inside it. */
function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile())
      out.set(
        path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'),
        fs.readFileSync(path.join(e.parentPath, e.name)),
      );
  return out;
}

/** Stores the fixture as image `imageId`'s original and runs the processing job to its end. */
async function processFixture(app: FastifyInstance, put: (key: string, bytes: Buffer) => Promise<void>) {
  const imageId = crypto.randomUUID();
  const key = `images/${imageId}/${path.basename(FIXTURE)}`;
  await put(key, fs.readFileSync(path.join(FIXTURES, FIXTURE)));
  const [{ id: organizationId }] = await app.ctx.db.select({ id: organizations.id }).from(organizations);
  await app.ctx.db
    .insert(images)
    .values({ id: imageId, name: path.basename(FIXTURE), organizationId, storageKey: key });
  await enqueue(app.ctx.db, PROCESS_IMAGE, { imageId });
  await app.ctx.jobs.drain();
  const [row] = await app.ctx.db.select().from(images).where(eq(images.id, imageId));
  expect(row.status, JSON.stringify(row.info)).toBe('completed');
  return imageId;
}

describe(`pyramid packs on the local disk on ${target.name}`, () => {
  let t: TestApp;
  let token: string;
  let tilerDir: string;
  let produced: Map<string, Buffer>;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
    // The tiler's own output for the fixture, as loose files: what the pack must hold.
    tilerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-tiler-'));
    const slide = await openSlide([path.join(FIXTURES, FIXTURE)]);
    try {
      await writePyramid(slide, folderSink(tilerDir));
    } finally {
      await slide.close();
    }
    produced = filesOf(tilerDir);
  });
  afterAll(async () => {
    await t?.close();
    if (t) forgetStorage(t.dataDir);
    fs.rmSync(tilerDir, { recursive: true, force: true });
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });
  const putLocal = async (key: string, bytes: Buffer) => {
    const file = path.join(t.dataDir, 'files', ...key.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
  };

  it('stores a pack, a thumbnail and a label per image, and serves the tiler’s bytes from the pack', async () => {
    const id = await processFixture(t.app, putLocal);
    const storage = storageFor({ dataDir: t.dataDir, expiryMs: 0 });
    expect(await storage.list(`derived/${id}/`)).toEqual([
      `derived/${id}/label.png`,
      `derived/${id}/pyramid.pack`,
      `derived/${id}/thumbnail.jpg`,
    ]);
    expect(fs.existsSync(tilesDir(t.dataDir, id))).toBe(false);
    expect(fs.readdirSync(path.join(t.dataDir, 'work'))).toEqual([]);

    // The pack read directly holds every file the tiler makes, and layers.json.
    const file = path.join(t.dataDir, 'files', ...packKey(id).split('/'));
    const index = await PackIndex.read(fs.statSync(file).size, fileReader(file));
    const names = [...index.names()].sort();
    expect(names).toEqual([...produced.keys(), 'layers.json'].sort());
    expect(produced.size).toBeGreaterThan(20);
    for (const [name, bytes] of produced) {
      const res = await get(`/v2/images/${id}/tiles/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.rawPayload.equals(bytes), name).toBe(true);
    }
    const tile = [...produced.keys()].find((n) => n.endsWith('.jpeg'))!;
    const first = await get(`/v2/images/${id}/tiles/${tile}`);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(first.headers['cache-control']).toContain('immutable');
    expect(
      (await get(`/v2/images/${id}/tiles/${tile}`, { 'if-none-match': String(first.headers.etag) }))
        .statusCode,
    ).toBe(304);
    const layers = await get(`/v2/images/${id}/tiles/layers.json`);
    expect(layers.json()).toMatchObject({ width: 2048, height: 1536 });
    // A tile the complete pyramid lacks does not exist (nothing is cut for it).
    expect((await get(`/v2/images/${id}/tiles/rgb_files/0/9_9.jpeg`)).statusCode).toBe(404);
    const thumb = await get(`/v2/images/${id}/tiles/thumbnail.jpg`);
    expect(thumb.statusCode).toBe(200);
    expect(
      thumb.rawPayload.equals(fs.readFileSync(path.join(t.dataDir, 'files', 'derived', id, 'thumbnail.jpg'))),
    ).toBe(true);
    const label = await get(`/v2/images/${id}/tiles/label.png`);
    expect([label.statusCode, label.headers['content-type']]).toEqual([200, 'image/png']);

    // The signed preview links read the same objects.
    for (const [route, body] of [
      ['thumbnail', thumb.rawPayload],
      ['labels', label.rawPayload],
    ] as const) {
      const link = String((await get(`/v2/images/${id}/${route}/download-url`)).json().url);
      const signed = await t.app.inject({ method: 'GET', url: link.slice(link.indexOf('/v2/files/')) });
      expect(signed.statusCode, route).toBe(200);
      expect(signed.rawPayload.equals(body), route).toBe(true);
    }
  });

  it('answers TILE_UNREADABLE for a tile of a damaged pack, and goes on serving', async () => {
    const id = await processFixture(t.app, putLocal);
    const file = path.join(t.dataDir, 'files', ...packKey(id).split('/'));
    const tile = [...produced.keys()].find((n) => n.endsWith('.jpeg'))!;
    // Cut off behind the server's back: the footer is gone.
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    await forgetPack(t.dataDir, id);
    for (const name of [tile, 'rgb.dzi']) {
      const res = await get(`/v2/images/${id}/tiles/${name}`);
      expect(res.statusCode, name).toBe(500);
      expect(res.json()).toMatchObject({ code: 'TILE_UNREADABLE', message: TileText.unreadable });
    }
    // A pack whose footer is there but whose index points past the bytes.
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.alloc(10), Buffer.from('TSRPACK1'), Buffer.alloc(24, 0xff)]),
    );
    await forgetPack(t.dataDir, id);
    expect((await get(`/v2/images/${id}/tiles/${tile}`)).json()).toMatchObject({ code: 'TILE_UNREADABLE' });
    // The previews are objects of their own: still there. The server still answers.
    expect((await get(`/v2/images/${id}/tiles/thumbnail.jpg`)).statusCode).toBe(200);
    expect((await get('/v2/health')).statusCode).toBe(200);
  });

  it('serves the loose tiles of an image processed before packs', async () => {
    const id = crypto.randomUUID();
    const [{ id: organizationId }] = await t.app.ctx.db.select({ id: organizations.id }).from(organizations);
    await t.app.ctx.db.insert(images).values({
      id,
      name: 'old.qptiff',
      organizationId,
      storageKey: `images/${id}/old.qptiff`,
      status: 'completed',
    });
    fs.cpSync(tilerDir, tilesDir(t.dataDir, id), { recursive: true });
    fs.writeFileSync(path.join(tilesDir(t.dataDir, id), 'layers.json'), '{"width":2048,"height":1536}');
    for (const name of [...produced.keys()].slice(0, 5)) {
      const res = await get(`/v2/images/${id}/tiles/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.rawPayload.equals(produced.get(name)!), name).toBe(true);
    }
    expect((await get(`/v2/images/${id}/tiles/rgb_files/0/9_9.jpeg`)).statusCode).toBe(404);
  });
});

describe(`pyramid packs in S3 served by a second server on ${target.name}`, () => {
  let s3: TestS3;
  let database: Awaited<ReturnType<typeof target.open>>;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const dirs: string[] = [];
  const savedEnv = { ...process.env };

  const server = async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pack-'));
    dirs.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist'), ...s3.env });
    return buildApp({ config, database });
  };

  beforeAll(async () => {
    s3 = await startS3();
    Object.assign(process.env, s3.env);
    database = await target.open();
    a = await server();
    await bootstrap(a.ctx.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password });
    // The second server: its own DATA_DIR and process state, the same database and bucket.
    b = await server();
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    await database?.drop();
    for (const d of dirs) {
      forgetStorage(d);
      fs.rmSync(d, { recursive: true, force: true });
    }
    process.env = savedEnv;
    await s3?.close();
  });

  it('processes on one server and serves the same tile, thumbnail and label from the other', async () => {
    const storageA = storageFor({ dataDir: dirs[0], expiryMs: 0 });
    const id = await processFixture(a, async (key, bytes) => {
      const tmp = path.join(dirs[0], 'fixture.tmp');
      fs.writeFileSync(tmp, bytes);
      await storageA.putFile(key, tmp);
    });
    expect(storageA.kind).toBe('s3');
    expect((await storageA.list(`derived/${id}/`)).length).toBe(3);
    // Nothing derived stays on either server's disk.
    for (const d of dirs) expect(fs.existsSync(tilesDir(d, id))).toBe(false);
    expect(fs.readdirSync(path.join(dirs[0], 'work'))).toEqual([]);
    expect(fs.existsSync(path.join(dirs[1], 'work'))).toBe(false);

    const tokenA = (await login(a)).access;
    const tokenB = (await login(b)).access;
    const level = (
      await a.inject({ method: 'GET', url: `/v2/images/${id}/tiles/rgb.dzi`, headers: bearer(tokenA) })
    ).body;
    expect(level).toContain('Width="2048"');
    s3.resetServed();
    for (const name of [
      'rgb_files/11/3_2.jpeg',
      'rgb_files/8/0_0.jpeg',
      'thumbnail.jpg',
      'label.png',
      'layers.json',
    ]) {
      const fromA = await a.inject({
        method: 'GET',
        url: `/v2/images/${id}/tiles/${name}`,
        headers: bearer(tokenA),
      });
      const fromB = await b.inject({
        method: 'GET',
        url: `/v2/images/${id}/tiles/${name}`,
        headers: bearer(tokenB),
      });
      expect([fromA.statusCode, fromB.statusCode], name).toEqual([200, 200]);
      expect(fromB.rawPayload.equals(fromA.rawPayload), name).toBe(true);
      expect(fromB.headers.etag, name).toBe(fromA.headers.etag);
    }
    // Server B read the pack from the bucket (server A had it open already).
    expect(s3.bytesServed(packKey(id))).toBeGreaterThan(0);
  });
});

// Tile-serving benchmark: a generated slide (CZI, 20,000 × 15,000 by default) is put in
// place as an uploaded image and processed by the real 'process-image' job, then random tiles of its
// DZI pyramid are requested through the real server (buildApp + listen) by 50 concurrent keep-alive
// clients signed in as a member of the image's organization: tiles/s and p50/p99 latency, beside
// GET /v2/health on the same server and the same tiles as loose files (the pyramid pack unpacked into a
// folder) from a bare Fastify (no sign-in, no access check, measured before and after the tiles) in
// the same run. It also prints what processing stored for the slide: bytes against the original's,
// and the objects. Targets: ≥ 0.8× the bare Fastify's
// tiles/s, p99 < 20 ms.
// Usage: npx tsx bench/tiles.ts [--size 20000x15000] [--duration 10] [--concurrency 50] [--db pglite|postgres]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hashPassword } from '../src/server/auth/passwords';
import { images, organizations, users } from '../src/server/db/schema';
import { enqueue } from '../src/server/jobs/queue';
import { PROCESS_IMAGE } from '../src/server/jobs/kinds';
import { dziLevels } from '../src/server/processing/dzi';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { derivedPrefix, packKey } from '../src/server/processing/derived';
import { unpack } from '../src/server/processing/pack-format';
import { storageFor } from '../src/server/storage';
import { sqlCapture } from './lib/explain';
import { SUMMARY_HEADER, formatSummary, measure, row, type Summary } from './lib/load';
import { generateSlides } from './lib/make-slides';
import { placeUploadedImage } from './lib/uploaded-image';
import { flags, loadLine, machine, postgresAnswers, signIn, startServer, type DbKind } from './lib/server';

const f = flags();
const [width, height] = String(f.get('size') ?? '20000x15000')
  .split('x')
  .map(Number);
const durationMs = Number(f.get('duration') ?? 10) * 1000;
const concurrency = Number(f.get('concurrency') ?? 50);
const WARMUP_MS = 2000;
const TARGET = { ofBare: 0.8, p99Ms: 20 };
const MEMBER = { email: 'viewer@bench.test', password: 'bench viewer password' };
const WIDTHS = [36, 8, 7, 7, 7, 7, 8, 7, 7, 7];

/** A bare Fastify serving a directory's files as the tile route does (stat, ETag, stream), nothing else. */
async function bareTileServer(root: string) {
  const app = Fastify();
  app.get('/*', async (request, reply) => {
    const file = path.join(root, (request.params as { '*': string })['*']);
    const stat = await fs.promises.stat(file);
    reply.header('ETag', `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`);
    reply.type('image/jpeg').header('Content-Length', stat.size);
    return reply.send(fs.createReadStream(file));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => app.close(),
  };
}

async function runOn(db: DbKind, slideFile: string): Promise<Summary[]> {
  console.log(`\n== ${db}`);
  const server = await startServer(db);
  try {
    const { app } = server;
    // An organization with a member who reads the image through the ordinary (non-admin) rules.
    const orgId = crypto.randomUUID();
    await app.ctx.db
      .insert(organizations)
      .values({ id: orgId, name: 'Bench Lab', rootId: orgId, parentIds: [] });
    await app.ctx.db.insert(users).values({
      id: crypto.randomUUID(),
      email: MEMBER.email,
      name: 'Viewer',
      passwordHash: await hashPassword(MEMBER.password),
      status: 'active',
      organizationId: orgId,
    });
    // The uploaded file in place, as the upload route leaves it, then the processing job.
    const { id: imageId } = await placeUploadedImage(server, slideFile, orgId);
    const t = performance.now();
    await enqueue(app.ctx.db, PROCESS_IMAGE, { imageId });
    await app.ctx.jobs.drain();
    const [image] = await app.ctx.db.select().from(images).where(eq(images.id, imageId));
    if (image.status !== 'completed')
      throw new Error(`processing ended ${image.status}: ${JSON.stringify(image.info)}`);
    console.log(
      `processed ${width}×${height} with 'process-image' in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    // Random tiles, every level weighted by its tile count (as a viewer panning and zooming asks).
    const all = dziLevels(width, height).flatMap((l) =>
      Array.from({ length: l.cols * l.rows }, (_, i) => `${l.level}/${i % l.cols}_${Math.floor(i / l.cols)}`),
    );
    const requests = Array.from({ length: 20_000 }, () => {
      const tile = all[Math.floor(Math.random() * all.length)];
      return { tag: 'tile', path: `/v2/images/${imageId}/tiles/rgb_files/${tile}.jpeg` };
    });
    const token = await signIn(server.origin, MEMBER.email, MEMBER.password);
    if (db === 'postgres') {
      // What a tile costs the database: every statement the request sends through the pool, for the
      // first tile of the image (the access decision is made) and the next (it is kept).
      for (const [what, request] of [
        ['the first tile of the image', requests[0]],
        ['the next tile', requests[1]],
      ] as const) {
        const capture = sqlCapture();
        capture.start();
        await (
          await fetch(server.origin + request.path, { headers: { authorization: `Bearer ${token}` } })
        ).arrayBuffer();
        const statements = capture.stop();
        capture.restore();
        console.log(`${what} sends ${statements.length} SQL statements${statements.length ? ':' : ''}`);
        for (const q of statements) console.log(`  ${q.text.replace(/\s+/g, ' ').slice(0, 110)}`);
      }
    }
    console.log(loadLine());
    console.log(row(SUMMARY_HEADER, WIDTHS));
    const job = {
      origin: server.origin,
      pick: 'round-robin' as const,
      concurrency,
      durationMs,
      warmupMs: WARMUP_MS,
    };
    const health = await measure(
      { ...job, requests: [{ tag: 'all', path: '/v2/health' }], headers: {} },
      server.database,
    );
    for (const s of health) console.log(row(formatSummary(`${db} baseline /v2/health`, s), WIDTHS));
    // The floor of the file part alone: the same files from a bare Fastify, no sign-in, no database,
    // measured before and after the tiles: on a shared machine the load moves during a run, and the
    // ratio is to the mean of the two.
    const storage = storageFor({ dataDir: server.dataDir, expiryMs: 0 });
    const stored = await storage.list(derivedPrefix(imageId));
    let storedBytes = 0;
    for (const key of stored) storedBytes += (await storage.size(key)) ?? 0;
    const original = fs.statSync(slideFile).size;
    console.log(
      `stored for the slide: ${stored.length} objects (${stored.map((k) => k.split('/').pop()).join(', ')}), ` +
        `${(storedBytes / 2 ** 20).toFixed(1)} MiB = ${(storedBytes / original).toFixed(2)}× the original's ` +
        `${(original / 2 ** 20).toFixed(1)} MiB; ${all.length} tiles in the pack`,
    );
    const looseDir = path.join(server.dataDir, 'bench-loose');
    await unpack(path.join(server.dataDir, 'files', ...packKey(imageId).split('/')), looseDir);
    const floor = await bareTileServer(looseDir);
    const bareRun = async (when: string) => {
      const files = await measure(
        {
          ...job,
          origin: floor.origin,
          requests: requests.map((r) => ({
            tag: r.tag,
            path: r.path.replace(`/v2/images/${imageId}/tiles/`, '/'),
          })),
          headers: {},
        },
        server.database,
      );
      for (const s of files)
        console.log(row(formatSummary(`${db} same files, bare Fastify ${when}`, s), WIDTHS));
      return files[0];
    };
    let tiles: Summary[];
    let bareRps: number;
    let bareCpuMs: number | undefined;
    try {
      const before = await bareRun('(1)');
      tiles = await measure(
        { ...job, requests, headers: { authorization: `Bearer ${token}` } },
        server.database,
      );
      for (const s of tiles) console.log(row(formatSummary(`${db} random tiles`, s), WIDTHS));
      const after = await bareRun('(2)');
      bareRps = (before.rps + after.rps) / 2;
      if (before.cpuMs !== undefined && after.cpuMs !== undefined)
        bareCpuMs = (before.cpuMs + after.cpuMs) / 2;
    } finally {
      await floor.close();
    }
    const [h] = health;
    const [s] = tiles;
    const ofBare = s.rps / bareRps;
    console.log(
      `${db}: ${s.rps.toFixed(0)} tiles/s = ${ofBare.toFixed(2)}× the bare Fastify's ${bareRps.toFixed(0)} ` +
        `(target ≥ ${TARGET.ofBare}×: ${ofBare >= TARGET.ofBare ? 'met' : 'missed'}), ` +
        `p99 ${s.p99.toFixed(1)} ms (target < ${TARGET.p99Ms}: ${s.p99 < TARGET.p99Ms ? 'met' : 'missed'}), ` +
        `${((s.rps * s.bytes) / 2 ** 20).toFixed(0)} MiB/s of ${(s.bytes / 1024).toFixed(1)} KiB tiles, ` +
        `${(s.rps / h.rps).toFixed(3)} of the health baseline's requests/s`,
    );
    // Less moved by other people's load than req/s: what a tile costs the server against the file alone.
    if (bareCpuMs !== undefined && s.cpuMs !== undefined)
      console.log(
        `${db}: server CPU per tile ${s.cpuMs.toFixed(2)} ms against ${bareCpuMs.toFixed(2)} ms for the bare ` +
          `Fastify: ${(bareCpuMs / s.cpuMs).toFixed(2)}× its tiles per CPU second`,
      );
    return [h, s];
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  console.log(`tiles bench, ${new Date().toISOString()}, ${machine()}`);
  console.log(
    `concurrency ${concurrency}, ${durationMs / 1000} s per run after ${WARMUP_MS / 1000} s warm-up`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-tiles-'));
  try {
    const slides = await generateSlides(dir, width, height, undefined, ['czi']);
    const wanted = f.get('db');
    const dbs: DbKind[] = wanted === 'postgres' || wanted === 'pglite' ? [wanted] : ['postgres', 'pglite'];
    for (const db of dbs) {
      if (db === 'postgres' && !(await postgresAnswers())) {
        console.log('\n== postgres: not reachable, skipped');
        continue;
      }
      await runOn(db, slides.czi!);
    }
    console.log(loadLine());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

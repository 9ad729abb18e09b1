// Time to the first tile: how soon after an upload completes a full-resolution tile of the slide is
// served, over HTTP by the real server and its in-process job worker (docs/formats.md "Viewable at
// once"). For each generated slide (bench/lib/make-slides.ts: a CZI of JPEG mosaic subblocks without a
// pyramid of its own, a QPTIFF with reduced levels ×4, ×16, ×64, an MRXS with halved levels) the bench
// does what the end of an upload does (the file, and an MRXS's data folder, in storage, the image row,
// its process-image job queued and the worker woken), then asks every 10 ms for the full-resolution
// tile at the slide's centre until it is served (target: ≤ 5 s whatever the size); then the whole
// slide's smallest one-tile level, and with --wait the time until the pyramid is complete. The files
// are hard-linked into the data folder before the clock starts.
// Usage: npx tsx bench/first-tile.ts [--sizes 20000x15000,40000x30000] [--only czi,qptiff,mrxs]
//        [--db pglite|postgres] [--dir <folder to keep and reuse the generated slides in>] [--wait]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { jobs } from '../src/server/db/schema';
import { enqueue } from '../src/server/jobs/queue';
import { dziLevels } from '../src/server/processing/dzi';
import { PROCESS_IMAGE } from '../src/server/jobs/kinds';
import { slidesIn, type SlideFile } from './lib/make-slides';
import { placeUploadedImage } from './lib/uploaded-image';
import { flags, loadLine, machine, signIn, startServer, type BenchServer, type DbKind } from './lib/server';

const TARGET_SECONDS = 5;
const POLL_MS = 10;

interface Timing {
  format: string;
  size: string;
  viewable: number;
  firstTile: number;
  /** Not-yet answers (503 / 404) before the first tile. */
  misses: number;
  overview: number | string;
  pyramid?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function slidesOf(dir: string, width: number, height: number, formats: SlideFile[]) {
  let last = 0;
  const { slides } = await slidesIn(dir, width, height, formats, (done, total) => {
    if (performance.now() - last < 15_000 && done < total) return;
    last = performance.now();
    console.log(`  generating ${width}×${height}: ${done}/${total} tiles`);
  });
  return slides;
}

/** Polls `url` until it answers 200; the seconds since `t0` and how many answers were not 200. */
async function firstOk(url: string, token: string, t0: number, limitS = 600) {
  let misses = 0;
  for (;;) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.ok) return { seconds: (performance.now() - t0) / 1000, misses };
    if ((performance.now() - t0) / 1000 > limitS) throw new Error(`${url}: still ${res.status}`);
    misses++;
    await sleep(POLL_MS);
  }
}

async function run(
  server: BenchServer,
  token: string,
  file: string,
  format: string,
  width: number,
  height: number,
  wait: boolean,
): Promise<Timing> {
  const { app, origin } = server;
  const { id } = await placeUploadedImage(server, file);
  // The upload is complete: what assemble.ts does next.
  const t0 = performance.now();
  const jobId = await enqueue(app.ctx.db, PROCESS_IMAGE, { imageId: id });
  app.ctx.jobs.nudge();
  const auth = { authorization: `Bearer ${token}` };
  // Viewable: the image's status as the app reads it (the tile cannot come before).
  let viewable: number;
  for (;;) {
    const res = await fetch(`${origin}/v2/images/${id}`, { headers: auth });
    const image = ((await res.json()) as { result?: { status: string } }).result;
    viewable = (performance.now() - t0) / 1000;
    if (image?.status === 'completed') break;
    if (image?.status === 'failed') throw new Error(`${format}: processing failed`);
    await sleep(POLL_MS);
  }
  const levels = dziLevels(width, height);
  const top = levels[0];
  const centre = `${Math.floor(top.cols / 2)}_${Math.floor(top.rows / 2)}`;
  const tile = await firstOk(
    `${origin}/v2/images/${id}/tiles/rgb_files/${top.level}/${centre}.jpeg`,
    token,
    t0,
  );
  const one = levels.find((l) => l.cols === 1 && l.rows === 1)!;
  const overviewUrl = `${origin}/v2/images/${id}/tiles/rgb_files/${one.level}/0_0.jpeg`;
  const probe = await fetch(overviewUrl, { headers: auth });
  await probe.arrayBuffer();
  const overview = probe.ok
    ? (performance.now() - t0) / 1000
    : `${probe.status} until the pyramid is written`;
  const timing: Timing = {
    format,
    size: `${width}×${height}`,
    viewable,
    firstTile: tile.seconds,
    misses: tile.misses,
    overview,
  };
  if (wait) {
    for (;;) {
      const [job] = await app.ctx.db
        .select({ status: jobs.status })
        .from(jobs)
        .where(eq(jobs.id, String(jobId)));
      if (job?.status === 'done' || job?.status === 'failed') break;
      await sleep(250);
    }
    timing.pyramid = (performance.now() - t0) / 1000;
  }
  return timing;
}

async function main(): Promise<void> {
  const f = flags();
  const sizes = String(f.get('sizes') ?? '20000x15000,40000x30000')
    .split(',')
    .map((s) => s.split('x').map(Number) as [number, number]);
  const formats = String(f.get('only') ?? 'czi,qptiff,mrxs').split(',') as Array<'czi' | 'qptiff' | 'mrxs'>;
  const db = (f.get('db') ?? 'pglite') as DbKind;
  const keep = typeof f.get('dir') === 'string' ? String(f.get('dir')) : undefined;
  const base = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-first-tile-'));
  console.log(`first-tile bench, ${new Date().toISOString()}, ${machine()}, ${db}`);
  console.log(loadLine());
  const rows: Timing[] = [];
  try {
    for (const [width, height] of sizes) {
      const slides = await slidesOf(path.join(base, `${width}x${height}`), width, height, formats);
      for (const format of formats) {
        // A fresh server per slide: no warm caches, and a pyramid still being written is stopped.
        const server = await startServer(db);
        server.app.ctx.jobs.start(); // as main.ts does
        try {
          const token = await signIn(server.origin);
          const t = await run(server, token, slides[format]!, format, width, height, f.has('wait'));
          rows.push(t);
          console.log(
            `${format.padEnd(6)} ${t.size.padStart(13)}  viewable ${t.viewable.toFixed(2)} s  ` +
              `first full-resolution tile ${t.firstTile.toFixed(2)} s (${t.misses} not-yet answers; target ≤ ${TARGET_SECONDS} s: ` +
              `${t.firstTile <= TARGET_SECONDS ? 'met' : 'missed'})  one-tile overview ` +
              `${typeof t.overview === 'number' ? `${t.overview.toFixed(2)} s` : t.overview}` +
              (t.pyramid !== undefined ? `  pyramid complete ${t.pyramid.toFixed(1)} s` : ''),
          );
        } finally {
          await server.close();
        }
      }
    }
    console.log(loadLine());
  } finally {
    if (!keep) fs.rmSync(base, { recursive: true, force: true });
  }
}

await main();

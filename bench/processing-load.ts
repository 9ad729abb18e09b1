// API latency while a big slide processes: the slides page's list call (GET /v2/scan-groups) at N
// concurrent clients against the real server, first idle, then while the in-process job worker
// writes the pyramid of a generated slide (bench/lib/make-slides.ts, CZI and QPTIFF) put in place as an
// uploaded image. Prints p50/p99 of both windows and the ratio of the p99s (target ≤ 1.2: the
// pyramid must not hold the server's event loop). The load client is a separate process
// (bench/lib/load-client.ts), so only the server's own work is on the measured event loop.
// Usage: npx tsx bench/processing-load.ts [--dir <folder with <W>x<H>/generated-<W>x<H>.json>]
//        [--size 20000x15000] [--only czi,qptiff] [--clients 8] [--seconds 10] [--db pglite|postgres]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { jobs } from '../src/server/db/schema';
import { enqueue } from '../src/server/jobs/queue';
import { PROCESS_IMAGE } from '../src/server/jobs/kinds';
import { measure, type Summary } from './lib/load';
import { slidesIn, type SlideFile } from './lib/make-slides';
import { placeUploadedImage } from './lib/uploaded-image';
import { flags, loadLine, machine, signIn, startServer, type BenchServer, type DbKind } from './lib/server';

const TARGET_RATIO = 1.2;
const WARMUP_MS = 1000;
const LIST = { tag: 'scan-groups', path: '/v2/scan-groups?page=1' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The job's status as the queue has it. */
async function jobStatus(server: BenchServer, jobId: string): Promise<string | undefined> {
  const [job] = await server.app.ctx.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId));
  return job?.status;
}

/** Puts `file` in place as an uploaded image and queues its processing; resolves once it is viewable. */
async function queueProcessing(server: BenchServer, token: string, file: string): Promise<string> {
  const { app, origin } = server;
  const { id, name } = await placeUploadedImage(server, file);
  const jobId = String(await enqueue(app.ctx.db, PROCESS_IMAGE, { imageId: id }));
  app.ctx.jobs.nudge();
  // Viewable first (manifest, label): the pyramid is what runs after, and what is measured.
  for (;;) {
    const res = await fetch(`${origin}/v2/images/${id}`, { headers: { authorization: `Bearer ${token}` } });
    const image = ((await res.json()) as { result?: { status: string; info?: unknown } }).result;
    if (image?.status === 'completed') return jobId;
    if (image?.status === 'failed')
      throw new Error(`${name}: processing failed: ${JSON.stringify(image.info)}`);
    await sleep(20);
  }
}

function line(label: string, s: Summary): string {
  return (
    `${label.padEnd(28)} ${s.requests.toString().padStart(6)} req  ${s.rps.toFixed(0).padStart(5)} req/s  ` +
    `p50 ${s.p50.toFixed(1).padStart(6)} ms  p99 ${s.p99.toFixed(1).padStart(6)} ms  max ${s.max.toFixed(1).padStart(7)} ms` +
    (s.errors ? `  ${s.errors} non-2xx` : '')
  );
}

async function main(): Promise<void> {
  const f = flags();
  const [width, height] = String(f.get('size') ?? '20000x15000')
    .split('x')
    .map(Number);
  const formats = String(f.get('only') ?? 'czi,qptiff').split(',') as SlideFile[];
  const clients = Number(f.get('clients') ?? 8);
  const seconds = Number(f.get('seconds') ?? 10);
  const db = (f.get('db') ?? 'pglite') as DbKind;
  const keep = typeof f.get('dir') === 'string' ? String(f.get('dir')) : undefined;
  const base = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-processing-load-'));
  console.log(`processing-load bench, ${new Date().toISOString()}, ${machine()}, ${db}`);
  console.log(`${clients} clients, ${seconds} s windows, GET ${LIST.path}, slide ${width}×${height}`);
  console.log(loadLine());
  try {
    const { slides } = await slidesIn(path.join(base, `${width}x${height}`), width, height, formats);
    for (const format of formats) {
      const server = await startServer(db);
      server.app.ctx.jobs.start(); // as main.ts does
      try {
        const token = await signIn(server.origin);
        const job = {
          origin: server.origin,
          requests: [LIST],
          pick: 'round-robin' as const,
          headers: { authorization: `Bearer ${token}` },
          concurrency: clients,
          durationMs: seconds * 1000,
          warmupMs: WARMUP_MS,
        };
        const [idle] = await measure(job);
        const t0 = performance.now();
        const jobId = await queueProcessing(server, token, slides[format]!);
        const viewableS = (performance.now() - t0) / 1000;
        const [busy] = await measure(job);
        const still = await jobStatus(server, jobId);
        // A window that outlasted the pyramid measured partly idle: say so rather than flatter.
        const during =
          still === 'running' ? 'pyramid still running at the end' : `job ${still} before the end`;
        // The pyramid yields to a busy server (busy-gate.ts): show that it ends once the load stops.
        const t1 = performance.now();
        let status = still;
        while (status === 'running' || status === 'queued') {
          await sleep(100);
          status = await jobStatus(server, jobId);
        }
        const afterS = (performance.now() - t1) / 1000;
        const ratio = busy.p99 / idle.p99;
        console.log(line(`${format} idle`, idle));
        console.log(line(`${format} writing the pyramid`, busy));
        console.log(
          `${format} p99 ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'missed'}); ` +
            `viewable after ${viewableS.toFixed(1)} s; ${during}; job ${status} ${afterS.toFixed(1)} s after the window`,
        );
      } finally {
        await server.close();
      }
    }
    console.log(loadLine());
  } finally {
    if (!keep) fs.rmSync(base, { recursive: true, force: true });
  }
}

await main();

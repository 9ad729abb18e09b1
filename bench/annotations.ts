// Annotations at scale in Debian's Chromium: an image's regions seeded through the API (GeoJSON
// imports of cell-like outlines of 50–200 vertices), then the viewer panned with the mouse for a fixed
// time while every animation frame's time is recorded (requestAnimationFrame deltas) beside what the
// annotation canvas drew in it; with the image's whole set in view (the worst case: every outline
// drawn) and at 1:1 (a part in view). Same-run baseline: the same pans of the same image with no
// annotations. Also the load time of the set: page load to every region on the canvas, from the
// network (query cache emptied) and from the local store, beside the same pages read by Node; and the
// Annotations list opened with the whole set (virtualised: rows rendered vs rows listed).
// The server starts as the e2e global setup starts it (built app, fresh DATA_DIR, fixture slides).
// Usage: npm run build && npm run bench -- annotations [--counts 1000,10000] [--pan-ms 4000] [--loads 3]
//   DIST_DIR, CHROMIUM_PATH as elsewhere.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { chromium, type APIRequestContext, type CDPSession, type Page } from '@playwright/test';
import { COUNT_COMMITS } from '../tests/e2e/react-commits';
import type { SeededSlide } from '../tests/e2e/seed-slides';
import { startSeededServer, stopServer } from './lib/seeded-server';
import { flags, loadLine, machine } from './lib/server';

const args = flags();
const COUNTS = String(args.get('counts') ?? '1000,10000')
  .split(',')
  .map(Number);
const PAN_MS = Number(args.get('pan-ms') ?? 4000);
const LOADS = Number(args.get('loads') ?? 3);
/** The target for a frame while panning. */
const TARGET_P95_MS = 20;
/** Features per GeoJSON import (the import takes at most 10,000 and 20 MiB). */
const IMPORT_CHUNK = 2000;

/** A small deterministic generator: every run seeds the same outlines. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `n` cell-like closed outlines of 50–200 vertices inside width × height, as QuPath features. */
function cells(n: number, width: number, height: number, seed: number): unknown[] {
  const rnd = random(seed);
  const classes = [undefined, { name: 'Tumor', color: [200, 0, 0] }, { name: 'Stroma', color: [0, 150, 0] }];
  return Array.from({ length: n }, (_, i) => {
    const r = 6 + rnd() * 14;
    const cx = 1.2 * r + 1 + rnd() * (width - 2.4 * r - 2);
    const cy = 1.2 * r + 1 + rnd() * (height - 2.4 * r - 2);
    const vertices = 50 + Math.floor(rnd() * 151);
    const wobble = rnd() * 0.3;
    const lobes = 2 + Math.floor(rnd() * 5);
    const ring = Array.from({ length: vertices }, (_, k) => {
      const a = (k / vertices) * 2 * Math.PI;
      const rr = r * (1 + wobble * Math.sin(a * lobes) * 0.5);
      return [
        Math.round((cx + rr * Math.cos(a)) * 100) / 100,
        Math.round((cy + rr * Math.sin(a)) * 100) / 100,
      ];
    });
    ring.push(ring[0]);
    const classification = classes[i % 3];
    return {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: {
        objectType: 'annotation',
        name: `Cell ${i + 1}`,
        ...(classification ? { classification } : {}),
      },
    };
  });
}

async function seed(
  request: APIRequestContext,
  imageId: string,
  n: number,
  seedNo: number,
  size: [number, number],
) {
  const features = cells(n, size[0], size[1], seedNo);
  for (let i = 0; i < features.length; i += IMPORT_CHUNK) {
    const res = await request.post(`/v2/images/${imageId}/annotations/geojson`, {
      data: { type: 'FeatureCollection', features: features.slice(i, i + IMPORT_CHUNK) },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      timeout: 120_000,
    });
    if (!res.ok()) throw new Error(`import: ${res.status()} ${(await res.text()).slice(0, 500)}`);
  }
}

interface BenchWindow {
  __annotationFrames?: { visible: number; vertices: number; ms: number }[];
  __rafs?: number[];
  __recording?: boolean;
  __commits?: number;
}

/** The renderer's CPU time so far (DevTools' Performance.getMetrics `ProcessTime`), in ms. */
async function rendererCpuMs(session: CDPSession): Promise<number> {
  const { metrics } = (await session.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return (metrics.find((m) => m.name === 'ProcessTime')?.value ?? NaN) * 1000;
}

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

interface PanResult {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  drawP95: number;
  drawMax: number;
  visible: number;
  vertices: number;
  /** React commits during the pan. */
  commits: number;
  /** The renderer process's CPU ms per frame during the pan. */
  cpuPerFrame: number;
}

/** Starts recording every animation frame's time (a string: tsx would wrap a named function). */
const RECORD_FRAMES = `(() => {
  window.__annotationFrames = [];
  window.__rafs = [];
  window.__recording = true;
  window.__commits = 0;
  const tick = (t) => {
    window.__rafs.push(t);
    if (window.__recording) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

/** Drags the slide left and right for PAN_MS with the mouse; every frame's time meanwhile. */
async function pan(page: Page): Promise<PanResult> {
  const box = (await page.getByTestId('annotation-layer').boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const cpuStart = await rendererCpuMs(session);
  await page.evaluate(RECORD_FRAMES);
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  const started = Date.now();
  for (let t = 0; t < PAN_MS; t = Date.now() - started) {
    const dx = 220 * Math.sin((t / 2000) * 2 * Math.PI);
    const dy = 80 * Math.sin((t / 1300) * 2 * Math.PI);
    await page.mouse.move(cx + dx, cy + dy);
  }
  await page.mouse.up();
  const { rafs, draws, commits } = await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.__recording = false;
    return { rafs: w.__rafs ?? [], draws: w.__annotationFrames ?? [], commits: w.__commits ?? 0 };
  });
  const cpu = (await rendererCpuMs(session)) - cpuStart;
  await session.detach();
  const deltas = rafs.slice(2).map((t, i) => t - rafs[i + 1]);
  const drawMs = draws.map((d) => d.ms);
  return {
    frames: deltas.length,
    p50: quantile(deltas, 0.5),
    p95: quantile(deltas, 0.95),
    max: Math.max(...deltas),
    drawP95: quantile(drawMs, 0.95),
    drawMax: drawMs.length ? Math.max(...drawMs) : NaN,
    visible: Math.max(0, ...draws.map((d) => d.visible)),
    vertices: quantile(
      draws.map((d) => d.vertices),
      0.5,
    ),
    commits,
    cpuPerFrame: cpu / Math.max(1, rafs.length),
  };
}

/** Emptied from a page that runs no app: the saved query cache and the kept annotation sets, so the set comes from the network. */
const DROP_QUERY_CACHE = `new Promise((resolve, reject) => {
  const open = indexedDB.open('tessera');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction('meta', 'readwrite');
    const meta = tx.objectStore('meta');
    meta.delete('queryCache');
    meta.delete(IDBKeyRange.bound('annotationSet:', 'annotationSet:\\uffff'));
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
})`;

/** Page load to `count` regions on the canvas, in ms since the navigation started. */
async function loadTime(page: Page, url: string, count: number, fromNetwork: boolean): Promise<number> {
  await page.goto('/icons/logo.svg');
  if (fromNetwork) await page.evaluate(DROP_QUERY_CACHE);
  await page.goto(url);
  const handle = await page.waitForFunction(
    (n) => {
      const c = document.querySelector('[data-testid="annotation-canvas"]');
      return c && Number(c.getAttribute('data-regions')) >= n ? performance.now() : undefined;
    },
    count,
    { timeout: 180_000, polling: 20 },
  );
  const ms = (await handle.jsonValue()) as number;
  // A visit: the query cache is saved (at most once a second) before the next load.
  await page.waitForTimeout(3000);
  return ms;
}

/** The same pages as the viewer reads them (IN_FLIGHT 4), from Node: the server's share of a load. */
async function nodeRead(request: APIRequestContext, imageId: string): Promise<number> {
  const started = performance.now();
  const base = `/v2/annotations?imageId=${imageId}`;
  const probe = (await (await request.get(`${base}&orderBy=updatedAt&limit=1`)).json()) as { count: number };
  const pages = Math.ceil(probe.count / 100);
  let next = 0;
  let rows = 0;
  const worker = async () => {
    for (let p = next++; p < pages; p = next++) {
      const res = await request.get(`${base}&orderBy=createdAt&orderDirection=asc&limit=100&page=${p + 1}`);
      // Read before adding: `rows += await …` would add to the value read before the wait.
      const got = ((await res.json()) as { result: unknown[] }).result.length;
      rows += got;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  if (rows !== probe.count) throw new Error(`read ${rows} of ${probe.count}`);
  return performance.now() - started;
}

async function waitProcessed(request: APIRequestContext, slides: SeededSlide[]): Promise<void> {
  const end = Date.now() + 180_000;
  for (const s of slides)
    for (;;) {
      const res = await request.get(`/v2/images/${s.imageId}`);
      const status = ((await res.json()) as { result?: { status?: string } }).result?.status;
      if (status === 'completed') break;
      if (Date.now() > end) throw new Error(`image ${s.imageId} not processed (${status})`);
      await new Promise((r) => setTimeout(r, 500));
    }
}

const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const median = (xs: number[]) => quantile(xs, 0.5);

async function main(): Promise<void> {
  console.log(machine());
  console.log(`start: ${loadLine()}`);
  const server = await startSeededServer(300_000);
  const { port, dataDir } = server;
  const { email, password } = server.admin;
  const slides = server.slides;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  const rows: string[][] = [];
  const loads: string[] = [];
  try {
    const context = await browser.newContext({
      baseURL: `http://127.0.0.1:${port}`,
      viewport: { width: 1280, height: 900 },
    });
    await context.addInitScript(COUNT_COMMITS);
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard/);
    const slide = slides.brightfield;
    await waitProcessed(page.request, [slide]);
    // The fixture's size (tests/e2e/seed-slides.ts): 2,048 × 1,536 at 0.5 µm per pixel.
    const size: [number, number] = [2048, 1536];
    const url = `/sgviewer/${slide.scanGroupId}`;

    const measure = async (label: string, count: number) => {
      await page.goto(url);
      await page.waitForFunction(
        (n) =>
          Number(document.querySelector('[data-testid="annotation-canvas"]')?.getAttribute('data-regions')) >=
          n,
        count,
        { timeout: 180_000 },
      );
      // Tiles in and the view settled.
      await page.waitForTimeout(1500);
      const whole = await pan(page);
      await page.getByRole('button', { name: '1:1' }).click();
      await page.waitForTimeout(1500);
      const near = await pan(page);
      // A click on the region under the view's centre selects it (hit test through the grid).
      const box = (await page.getByTestId('annotation-layer').boundingBox())!;
      const clickStarted = performance.now();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const hit = await page
        .getByTestId('annotation-region')
        .waitFor({ timeout: 2000 })
        .then(() => `selected in ${(performance.now() - clickStarted).toFixed(0)} ms (round trip included)`)
        .catch(() => 'nothing selected');
      if (count > 0) console.log(`${label}: click at the centre: ${hit}`);
      for (const [view, r] of [
        ['whole image', whole],
        ['1:1', near],
      ] as const) {
        rows.push([
          label,
          view,
          String(r.frames),
          f(r.p50),
          f(r.p95),
          f(r.max),
          f(r.drawP95),
          f(r.drawMax),
          String(r.visible),
          String(r.vertices),
          String(r.commits),
          f(r.cpuPerFrame),
          r.p95 < TARGET_P95_MS ? 'met' : 'missed',
        ]);
        console.log(
          `${label} ${view}: ${r.frames} frames, p50 ${f(r.p50)} p95 ${f(r.p95)} max ${f(r.max)} ms; canvas draw p95 ${f(r.drawP95)} max ${f(r.drawMax)} ms, ${r.visible} regions, ${r.vertices} vertices; ${r.commits} React commits, renderer CPU ${f(r.cpuPerFrame)} ms per frame; ${loadLine()}`,
        );
      }
      return { whole, near };
    };

    const empty = await measure('no annotations (baseline)', 0);
    let seeded = 0;
    for (const [k, count] of COUNTS.entries()) {
      const started = performance.now();
      await seed(page.request, slide.imageId, count - seeded, 100 + k, size);
      console.log(
        `seeded ${count - seeded} through GeoJSON imports in ${(performance.now() - started).toFixed(0)} ms`,
      );
      seeded = count;
      const r = await measure(`${count.toLocaleString('en')} annotations`, count);
      console.log(
        `  p95 ÷ baseline: whole image ${(r.whole.p95 / empty.whole.p95).toFixed(2)}, 1:1 ${(r.near.p95 / empty.near.p95).toFixed(2)}`,
      );
      const net: number[] = [];
      const local: number[] = [];
      const node: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        net.push(await loadTime(page, url, count, true));
        local.push(await loadTime(page, url, count, false));
        node.push(await nodeRead(page.request, slide.imageId));
      }
      // The list with the whole set: time from the click to its first row, and rows in the document.
      await page.goto(url);
      await page.waitForFunction(
        (n) =>
          Number(document.querySelector('[data-testid="annotation-canvas"]')?.getAttribute('data-regions')) >=
          n,
        count,
        { timeout: 180_000 },
      );
      const clicked = performance.now();
      await page.getByRole('button', { name: 'Annotations' }).click();
      await page.getByTestId('annotation').first().waitFor({ timeout: 60_000 });
      const listMs = performance.now() - clicked;
      const listed = await page.getByTestId('annotation-list').getAttribute('data-rows');
      const rendered = await page.getByTestId('annotation').count();
      const line = `${count.toLocaleString('en')}: load to every region drawn, from the network ${median(net).toFixed(0)} ms (${net.map((x) => x.toFixed(0)).join(' / ')}), from the local store ${median(local).toFixed(0)} ms (${local.map((x) => x.toFixed(0)).join(' / ')}); the same pages read by Node ${median(node).toFixed(0)} ms; list opened in ${listMs.toFixed(0)} ms with ${rendered} of ${listed} rows rendered; ${loadLine()}`;
      console.log(line);
      loads.push(line);
    }
  } finally {
    await browser.close();
    await stopServer(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`end: ${loadLine()}`);
  console.log(`\nPanning ${PAN_MS} ms with the mouse, frame times (requestAnimationFrame deltas) in ms:`);
  const head = [
    'set',
    'view',
    'frames',
    'p50',
    'p95',
    'max',
    'draw p95',
    'draw max',
    'regions drawn',
    'vertices',
    'commits',
    'cpu/frame',
    `p95 < ${TARGET_P95_MS}`,
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  console.log('\nLoads:');
  for (const l of loads) console.log(l);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

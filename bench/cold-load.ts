// Cold load: a full page load of /dashboard/slides, a study page, the Active Reviews list, the reviewer
// page and the slide viewer in Debian's Chromium, timed from the navigation's start to the page's content
// on screen, with the local store filled by an earlier visit (what the user sees on a reload) and, as
// the same-run baseline, with the local store emptied (every IndexedDB table but the session: the page
// waits for the network). The server is started as the e2e global setup starts it: the built app, a
// fresh DATA_DIR, the fixture slides (processed on start) and the administrator password it prints.
// Usage: npm run build && npm run bench -- cold-load [--loads 5] [--pages slides,study,...] [--steps]
//   --steps prints, per page, median milestones of its loads (the app's script, its first frame, the
//   session check, the first sync request and tile, and any performance.mark the app sets), to show
//   where the time goes. DIST_DIR, CHROMIUM_PATH as elsewhere.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import type { SeededSlide } from '../tests/e2e/seed-slides';
import { startSeededServer, stopServer } from './lib/seeded-server';
import { flags, loadLine, machine } from './lib/server';

const args = flags();
const LOADS = Number(args.get('loads') ?? 5);
const STEPS = args.has('steps');
/** How long each page stays open after its content showed (the query cache is saved every second). */
const VISIT_MS = 1500;
/** The issue's target for a load from the local store. */
const TARGET_MS = 500;

interface Target {
  key: string;
  url: string;
  /** The page's content: present and laid out (a non-empty box) counts as on screen. */
  content: string;
}

/** Every table of the local database but the session, emptied from a page that does not run the app. */
const EMPTY_STORE = `new Promise((resolve, reject) => {
  const open = indexedDB.open('tessera');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const names = [...db.objectStoreNames].filter((n) => n !== 'session');
    const tx = db.transaction(names, 'readwrite');
    for (const n of names) tx.objectStore(n).clear();
    tx.oncomplete = () => { db.close(); resolve(names.length); };
    tx.onerror = () => reject(tx.error);
  };
})`;

interface LoadTimes {
  content: number;
  /** --steps: milestones in ms since the navigation started. */
  steps: Record<string, number>;
}

/** One full page load of `target` (after a same-origin page that runs no app code): its timings. */
async function timedLoad(page: Page, target: Target, empty: boolean): Promise<LoadTimes> {
  await page.goto('/icons/logo.svg');
  if (empty) await page.evaluate(EMPTY_STORE);
  await page.goto(target.url);
  await page
    .waitForFunction(() => (window as unknown as BenchWindow).__content !== undefined, undefined, {
      timeout: 60_000,
      polling: 50,
    })
    .catch(async (error: unknown) => {
      const shot = path.join(os.tmpdir(), `cold-load-${target.key}.png`);
      await page.screenshot({ path: shot });
      throw new Error(`${target.url}: no ${target.content} (screenshot ${shot})`, { cause: error });
    });
  const times = await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    const steps: Record<string, number> = { ...w.__steps };
    for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const name = new URL(e.name).pathname;
      const label = /\/assets\/index-[^/]*\.js$/.test(name)
        ? 'app script'
        : /\/v2\/auth\/me$/.test(name)
          ? 'GET /auth/me'
          : /\/v2\/sync\//.test(name)
            ? 'first sync request'
            : /_files\/\d+\/\d+_\d+\.\w+$/.test(name)
              ? 'first tile'
              : undefined;
      if (label && steps[`${label} end`] === undefined) {
        steps[`${label} start`] = e.startTime;
        steps[`${label} end`] = e.responseEnd;
      }
    }
    // Marks the app sets (performance.mark) while it starts.
    for (const m of performance.getEntriesByType('mark')) steps[m.name] ??= m.startTime;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (nav) steps['document'] = nav.responseEnd;
    return { content: w.__content!, steps };
  });
  // A visit, not a glance: the app saves what the page showed (its query cache, at most once a
  // second) before the next load, as it does when someone reads a page and reloads it later.
  await page.waitForTimeout(VISIT_MS);
  return times;
}

interface BenchWindow {
  __content?: number;
  __steps: Record<string, number>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');

async function main(): Promise<void> {
  console.log(machine());
  console.log(`start: ${loadLine()}`);
  const server = await startSeededServer(90_000);
  const { port, dataDir } = server;
  const { email, password } = server.admin;
  const slides = Object.values(server.slides);
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  const rows: string[][] = [];
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard/);

    // What the pages show: a study holding both slides, and a QC review group of both images.
    const study = await page.request.post('/v2/studies', {
      data: { study: { name: `Cold load ${Date.now()}`, scanGroupIds: slides.map((s) => s.scanGroupId) } },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    if (!study.ok()) throw new Error(`study: ${study.status()} ${await study.text()}`);
    const studyId = ((await study.json()) as { result: { id: string } }).result.id;
    const group = crypto.randomUUID();
    for (const s of slides) {
      const res = await page.request.post('/v2/reviews', {
        // The administrator's own QC results: a QC request names someone else (docs/decisions.md).
        data: { review: { reviewGroupUUID: group, imageId: s.imageId, type: 'qc', status: 'accepted' } },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      if (!res.ok()) throw new Error(`review: ${res.status()} ${await res.text()}`);
    }
    await waitProcessed(page, slides);

    const viewed: SeededSlide = slides[0];
    const all: Target[] = [
      { key: 'slides', url: '/dashboard/slides', content: '[data-testid="slide-card"]' },
      {
        key: 'study',
        url: `/studies/${studyId}`,
        content: '[data-testid="study-page"] [data-testid="slide-card"]',
      },
      { key: 'reviews', url: '/dashboard/reviews-and-qc', content: '[data-testid="review-card"]' },
      { key: 'reviewer', url: `/review/${group}/0`, content: '[data-testid="review-status"]' },
      {
        key: 'viewer',
        url: `/sgviewer/${viewed.scanGroupId}`,
        content: '[aria-label^="Image 1: "]',
      },
    ];
    const only = typeof args.get('pages') === 'string' ? String(args.get('pages')).split(',') : undefined;
    const targets = all.filter((t) => !only || only.includes(t.key));

    // Each load records when its target's content is first in the document with a box, in ms since
    // the navigation started (performance.now()), and when the session screen went away.
    await context.addInitScript(
      (selectors: Record<string, string>) => {
        const w = window as unknown as BenchWindow;
        w.__steps = {};
        const selector = selectors[location.pathname];
        if (!selector) return;
        // No named inner functions: tsx would wrap them in a helper the page does not have.
        new MutationObserver(() => {
          const now = performance.now();
          if (w.__steps['shell'] === undefined && document.querySelector('#root > *'))
            w.__steps['shell'] = now;
          const el = w.__content === undefined ? document.querySelector(selector) : null;
          if (el && el.getBoundingClientRect().height > 0) w.__content = now;
        }).observe(document, { childList: true, subtree: true });
      },
      Object.fromEntries(targets.map((t) => [new URL(t.url, base).pathname, t.content])),
    );

    // The service worker in control and the first sync done, as for a user who opened the app before.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((r) =>
          navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
        );
    });
    await untilSynced(page);
    for (const t of targets) await timedLoad(page, t, false);

    for (const t of targets) {
      const local: LoadTimes[] = [];
      const empty: LoadTimes[] = [];
      // Alternating, so a change in the machine's load falls on both.
      for (let i = 0; i < LOADS; i++) {
        local.push(await timedLoad(page, t, false));
        empty.push(await timedLoad(page, t, true));
      }
      // The last load was from an emptied store: one more visit fills it for the next page.
      await timedLoad(page, t, false);
      const l = local.map((x) => x.content);
      const e = empty.map((x) => x.content);
      console.log(`${t.url}: local ${fmt(l)} ms; store emptied ${fmt(e)} ms; ${loadLine()}`);
      if (STEPS)
        for (const [label, runs] of [
          ['local', local],
          ['emptied', empty],
        ] as const)
          console.log(
            `  ${label} steps (median ms): ${Object.keys(runs[0].steps)
              .sort(
                (a, b) =>
                  median(runs.map((r) => r.steps[a] ?? NaN)) - median(runs.map((r) => r.steps[b] ?? NaN)),
              )
              .map((k) => `${k} ${median(runs.map((r) => r.steps[k] ?? NaN)).toFixed(0)}`)
              .join(', ')}`,
          );
      rows.push([
        t.key,
        t.url.replace(/[0-9a-f-]{36}/g, '…'),
        median(l).toFixed(0),
        median(e).toFixed(0),
        (median(l) / median(e)).toFixed(2),
        median(l) < TARGET_MS ? 'met' : 'missed',
      ]);
    }
  } finally {
    await browser.close();
    await stopServer(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`end: ${loadLine()}`);
  console.log(`\n${LOADS} loads each, median ms from navigation start to content on screen:`);
  const head = ['page', 'url', 'local store', 'store emptied (baseline)', 'ratio', `< ${TARGET_MS} ms`];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
}

/** The first sync of every kind is done (the engine stamps `lastSyncedAt`). */
async function untilSynced(page: Page): Promise<void> {
  const end = Date.now() + 60_000;
  const synced = () =>
    page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('tessera');
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const db = open.result;
            const req = db.transaction('meta').objectStore('meta').count('lastSyncedAt');
            req.onsuccess = () => (db.close(), resolve(req.result === 1));
            req.onerror = () => (db.close(), resolve(false));
          };
        }),
    );
  while (!(await synced().catch(() => false))) {
    if (Date.now() > end) throw new Error('the first sync did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The server's worker processes the fixture slides on start; the viewer needs their tiles. */
async function waitProcessed(page: Page, slides: SeededSlide[]): Promise<void> {
  const end = Date.now() + 180_000;
  for (const s of slides)
    for (;;) {
      const res = await page.request.get(`/v2/images/${s.imageId}`);
      const status = ((await res.json()) as { result?: { status?: string } }).result?.status;
      if (status === 'completed') break;
      if (Date.now() > end) throw new Error(`image ${s.imageId} not processed (${status})`);
      await new Promise((r) => setTimeout(r, 500));
    }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

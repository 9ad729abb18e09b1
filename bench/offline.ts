// Offline-first benchmark: with 10,000 slides (scan groups) and 2,000 studies on the server,
// measures in Debian's Chromium against the real server:
//   - initial sync: sign-in → every kind pulled to its last page (the local store starts empty);
//   - first rendered row of /dashboard/studies and of /dashboard/slides (both read the mirror), each
//     from the local store (page load and the dashboard's tab) and with that kind's mirror emptied
//     (network first: the page's pull of the kind), in the same run;
//   - replay of 1,000 queued study creates while /dashboard/studies is open (BENCH_REPLAY_PAGE), checked
//     exactly once on the server, against the server alone taking the same creates from Node.
// Usage: DIST_DIR=/tmp/dist-x npm run build && DIST_DIR=/tmp/dist-x npx tsx bench/offline.ts [--pg]
//   [--profile] [--trace] [--replay-only]   (PORT=8291 by default; a temp data dir, deleted after.) --pg runs the
//   server on a fresh PostgreSQL database at TEST_PG_URL's server instead of the embedded PGlite, which
//   writes one request at a time; --profile prints the page's hot functions (source lines) in each
//   measured step; --replay-only skips the first-row measurements, --no-replay the replay; BENCH_REPLAYS
//   sets the queue length. For A/B runs of the tab clicks: BENCH_CLICKS=n clicks per list (3),
//   BENCH_LISTS=studies,slides which lists, --no-empty skips the store-empty page loads; the load
//   average is printed per list.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import pg from 'pg';
import { SYNC_KINDS, SYNC_PAGE_MAX } from '../src/api/sync';
import { printHotspots, type CpuProfile } from './lib/hotspots';
import { loadLine } from './lib/server';
import { printTrace, startTrace } from './lib/trace';
import { refsOf, type MirrorRow, type OutboxEntry } from '../src/local/db';
import { rebuildRow } from '../src/local/effects';
import { openDatabase } from '../src/server/db/client';
import { organizations, scanGroups, studies, users } from '../src/server/db/schema';

const PORT = Number(process.env.PORT || 8291);
const BASE = `http://localhost:${PORT}`;
const ADMIN = { email: 'bench@lab.test', password: 'bench horse battery staple' };
const SLIDES = 10_000;
const STUDIES = 2_000;
const REPLAYS = Number(process.env.BENCH_REPLAYS || 1_000);
/** The built app the server serves (the same variable vite.config.ts and the server read). */
/** The page open while the outbox drains (the studies list redraws as its rows change). */
const REPLAY_PAGE = process.env.BENCH_REPLAY_PAGE || '/dashboard/studies';
const DIST = path.resolve(process.env.DIST_DIR || 'dist');
/** --trace: a Chrome trace of each tab click, summarised (bench/lib/trace.ts); the page then also sets
 * two performance marks (the click, the first row) that the summary is cut by. */
const TRACE = process.argv.includes('--trace');
/** Tab clicks (and local page loads) per list. */
const CLICKS = Number(process.env.BENCH_CLICKS || 3);
/** Which lists are measured (studies, slides). */
const ONLY_LISTS = (process.env.BENCH_LISTS || 'studies,slides').split(',');
/** --no-empty: no store-empty page loads (the tab clicks alone, for A/B runs). */
const NO_EMPTY = process.argv.includes('--no-empty');

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for --pg, and how to drop it. */
async function pgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tessera_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

let databaseUrl: string | undefined;

function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DIST_DIR: DIST,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/running at/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Rows straight into the database between two server starts (PGlite allows one process). */
async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase(databaseUrl ?? path.join(dataDir, 'db'));
  const [org] = await database.db.select().from(organizations);
  const [admin] = await database.db.select().from(users);
  const assignees = { assigneeUserIds: [admin.id], assigneeOrgIds: [org.id] };
  for (let i = 0; i < SLIDES; i += 1000)
    await database.db.insert(scanGroups).values(
      Array.from({ length: Math.min(1000, SLIDES - i) }, (_, j) => ({
        id: crypto.randomUUID(),
        simpleId: `BENCH-${String(i + j).padStart(6, '0')}`,
        organizationId: org.id,
        creatorUserId: admin.id,
        animal: 'Human',
        tags: ['bench'],
        ...assignees,
      })),
    );
  for (let i = 0; i < STUDIES; i += 500)
    await database.db.insert(studies).values(
      Array.from({ length: Math.min(500, STUDIES - i) }, (_, j) => ({
        id: crypto.randomUUID(),
        name: `Bench study ${i + j}`,
        organizationId: org.id,
        creatorUserId: admin.id,
        ...assignees,
      })),
    );
  await database.close();
}

/** Raw IndexedDB from the page (the bench does not load our modules into it). */
const idb = <T>(page: Page, fn: string, arg?: unknown): Promise<T> =>
  page.evaluate(
    ([body, a]) =>
      new Promise<T>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          (new Function('db', 'arg', 'resolve', 'reject', body as string) as (...x: unknown[]) => void)(
            db,
            a,
            (v: T) => (db.close(), resolve(v)),
            reject,
          );
        };
      }),
    [fn, arg] as const,
  );

const count = (page: Page, store: string) =>
  idb<number>(
    page,
    `const r = db.transaction(arg).objectStore(arg).count(); r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error);`,
    store,
  );

type Key = 'studies' | 'slides';
/** A row not on screen before the click: the page the tab is clicked from may show the same cards
 * (recent activity shows study cards), which are marked `data-bench-old` before the click. */
const SELECTORS: Record<Key, string> = {
  studies: '[data-testid="study-card"]:not([data-bench-old])',
  slides: '[data-testid="slide-card"]:not([data-bench-old])',
};

/** A full page load: ms from the navigation's start to the first row on screen. */
async function firstRowOnLoad(page: Page, url: string, key: Key): Promise<number> {
  await page.goto(url);
  await page.waitForSelector(SELECTORS[key], { timeout: 60_000 });
  return page.evaluate(
    (k) => (window as unknown as { __firstRow: Record<string, number> }).__firstRow[k],
    key,
  );
}

/** An in-app navigation (the dashboard's tab): ms from the click to the first row on screen. */
async function firstRowOnTab(page: Page, tab: string, key: Key): Promise<number> {
  await page.evaluate(
    ([tabName, selector, marks]) => {
      const w = window as unknown as { __firstRow: Record<string, number>; __clickAt: number };
      for (const old of document.querySelectorAll(selector)) old.setAttribute('data-bench-old', '');
      w.__firstRow = {};
      const target = [...document.querySelectorAll('[role="tab"]')].find(
        (t) => t.textContent?.trim() === tabName,
      );
      if (!target) throw new Error(`no tab ${tabName}`);
      w.__clickAt = performance.now();
      if (marks) performance.mark('bench-click');
      (target as HTMLElement).click();
    },
    [tab, SELECTORS[key], TRACE] as const,
  );
  await page.waitForSelector(SELECTORS[key], { timeout: 60_000 });
  await page.waitForFunction(
    (k) => (window as unknown as { __firstRow: Record<string, number> }).__firstRow[k],
    key,
  );
  return page.evaluate((k) => {
    const w = window as unknown as { __firstRow: Record<string, number>; __clickAt: number };
    return w.__firstRow[k] - w.__clickAt;
  }, key);
}

/** Polls `check` from Node (page.waitForFunction does not wait for a promise's value). */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ALL_PULLED = `if (!db.objectStoreNames.contains('cursors')) return resolve(false);
  const r = db.transaction('cursors').objectStore('cursors').getAll();
  r.onsuccess = () => { const done = new Set(r.result.filter((c) => c.syncedAt).map((c) => c.kind)); resolve(arg.every((k) => done.has(k))); };
  r.onerror = () => resolve(false);`;

/** `n` study creates as createEntity queues them: the entry (its own id, the row's temporary id as
 * target, refs) and the row shown as pending until the server answers. */
function craftCreates(n: number, prefix: string): { entries: OutboxEntry[]; rows: MirrorRow[] } {
  const entries: OutboxEntry[] = [];
  const rows: MirrorRow[] = [];
  for (let i = 0; i < n; i++) {
    const rowId = crypto.randomUUID();
    const entry: OutboxEntry = {
      id: crypto.randomUUID(),
      seq: i + 1,
      method: 'POST',
      path: '/studies',
      body: { study: { name: `${prefix} ${i}` } },
      baseVersion: null,
      createdAt: new Date().toISOString(),
      attempts: 0,
      state: 'pending',
      target: `studies:${rowId}`,
    };
    entry.refs = refsOf(entry);
    entries.push(entry);
    const row = rebuildRow(rowId, null, [entry]);
    if (!row) throw new Error('a create builds a row');
    rows.push(row);
  }
  return { entries, rows };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(DIST, 'index.html')))
    throw new Error(`Build the app first: DIST_DIR=${DIST} npm run build`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  const pgDb = process.argv.includes('--pg') ? await pgDatabase() : undefined;
  databaseUrl = pgDb?.url;
  console.log(`database: ${pgDb ? 'PostgreSQL' : 'PGlite'}`);
  let server = await startServer(dataDir);
  await stopServer(server);
  console.log(`seeding ${SLIDES} slides and ${STUDIES} studies…`);
  await seed(dataDir);
  server = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  const results: Array<[string, string, string]> = [];
  try {
    const context = await browser.newContext({ baseURL: BASE });
    // Records when the first row of each list appears, in ms since the navigation started.
    await context.addInitScript(
      ([selectors, marks]) => {
        const w = window as unknown as { __firstRow: Record<string, number> };
        w.__firstRow = {};
        new MutationObserver(() => {
          for (const [k, sel] of Object.entries(selectors))
            if (!w.__firstRow[k] && document.querySelector(sel)) {
              w.__firstRow[k] = performance.now();
              if (marks) performance.mark(`bench-first-row-${k}`);
            }
        }).observe(document, { childList: true, subtree: true });
      },
      [SELECTORS, TRACE] as const,
    );
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    const profiling = process.argv.includes('--profile') ? await context.newCDPSession(page) : undefined;
    const tracing = TRACE ? await context.newCDPSession(page) : undefined;
    const profile = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
      if (!profiling) return run();
      await profiling.send('Profiler.enable');
      await profiling.send('Profiler.start');
      const started = Date.now();
      const value = await run();
      printHotspots(
        (await profiling.send('Profiler.stop')).profile as CpuProfile,
        label,
        Date.now() - started,
        DIST,
      );
      return value;
    };
    // When the pull's requests went out and came back, to tell the app's start from the pull itself.
    const feed = { first: 0, last: 0, requests: 0 };
    const onFeed = (req: import('@playwright/test').Request) => {
      if (!/\/v2\/sync\/[a-z-]+\?/.test(req.url())) return;
      feed.first ||= Date.now();
      feed.last = Date.now();
      feed.requests++;
    };
    page.on('request', onFeed);
    page.on('requestfinished', onFeed);
    const t0 = Date.now();
    await profile('initial sync', async () => {
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Done when every kind's pull reached its last page (pull.ts stamps `syncedAt` then). Not
      // meta.lastSyncedAt: a single kind's pull (a page's query) or a replay stamps that too.
      await until(
        async () => (await idb<boolean>(page, ALL_PULLED, SYNC_KINDS).catch(() => false)) === true,
        120_000,
      );
    });
    const initialSync = Date.now() - t0;
    page.off('request', onFeed);
    page.off('requestfinished', onFeed);
    const [nStudies, nSlides] = [await count(page, 'studies'), await count(page, 'scanGroups')];
    results.push([
      'initial sync (all kinds)',
      `${initialSync} ms (${nStudies} studies, ${nSlides} slides)`,
      '< 5000 ms',
    ]);
    results.push([
      'of which: sign-in click → first feed request; first request → last answer',
      `${feed.first - t0} ms; ${feed.last - feed.first} ms (${feed.requests / 2} requests)`,
      'info',
    ]);

    // Same-run baseline: the server alone serving the whole feed to Node, kinds one after another,
    // page after page (what the page's pull adds to it is IndexedDB and the page's own work).
    const f0 = Date.now();
    let feedBytes = 0;
    for (const kind of SYNC_KINDS) {
      let cursor = '';
      for (;;) {
        const res = await context.request.get(
          `/v2/sync/${kind}?limit=${SYNC_PAGE_MAX}${cursor && `&cursor=${cursor}`}`,
        );
        const body = await res.body();
        feedBytes += body.length;
        const page = JSON.parse(body.toString()) as { cursor: string; hasMore: boolean };
        cursor = page.cursor;
        if (!page.hasMore) break;
      }
    }
    results.push([
      'server alone: the whole feed to Node (baseline)',
      `${Date.now() - f0} ms (${(feedBytes / 1e6).toFixed(1)} MB)`,
      'info',
    ]);

    // Both lists, each measured the same way in this run: from the local store (a full page load, and
    // an in-app navigation by the dashboard's tab), then with that kind's mirror emptied (its rows,
    // its pull cursor and the persisted query cache), so the first rows wait for the network.
    const LISTS = [
      { key: 'studies', tab: 'Studies', url: '/dashboard/studies', table: 'studies', kind: 'studies' },
      { key: 'slides', tab: 'Slides', url: '/dashboard/slides', table: 'scanGroups', kind: 'scan-groups' },
    ] as const;
    const lists = LISTS.filter((l) => ONLY_LISTS.includes(l.key));
    for (const list of process.argv.includes('--replay-only') ? [] : lists) {
      const tabLocal: number[] = [];
      const loadLocal: number[] = [];
      for (let i = 0; i < CLICKS; i++) {
        loadLocal.push(await firstRowOnLoad(page, list.url, list.key));
        await page.goto('/dashboard/recent-activity');
        await page.getByRole('tab', { name: list.tab }).waitFor();
        const stopTrace = tracing ? await startTrace(tracing) : undefined;
        tabLocal.push(await profile(`${list.key} tab click`, () => firstRowOnTab(page, list.tab, list.key)));
        if (stopTrace) printTrace(await stopTrace(), 'bench-click', `bench-first-row-${list.key}`, DIST);
      }
      const loadEmpty: number[] = [];
      for (let i = 0; i < (NO_EMPTY ? 0 : 3); i++) {
        await idb(
          page,
          `const tx = db.transaction([arg.table, 'cursors', 'meta'], 'readwrite'); tx.objectStore(arg.table).clear(); tx.objectStore('cursors').delete(arg.kind); tx.objectStore('meta').delete('queryCache'); tx.oncomplete = () => resolve(true);`,
          { table: list.table, kind: list.kind },
        );
        loadEmpty.push(await firstRowOnLoad(page, list.url, list.key));
        // The page's pull brings the whole kind back before the next step.
        await until(
          async () => (await count(page, list.table)) >= (list.key === 'studies' ? STUDIES : SLIDES),
          120_000,
        );
      }
      results.push([
        `${list.url} first row, local store (tab click)`,
        `${median(tabLocal).toFixed(0)} ms`,
        '< 100 ms',
      ]);
      results.push([
        `${list.url} first row, local store (page load)`,
        `${median(loadLocal).toFixed(0)} ms`,
        'info',
      ]);
      if (loadEmpty.length)
        results.push([
          `${list.url} first row, local store empty (page load)`,
          `${median(loadEmpty).toFixed(0)} ms`,
          'network first',
        ]);
      console.log(`${list.url}: ${loadLine()}`);
      console.log(
        `${list.url}: tab ${tabLocal.map((x) => x.toFixed(0)).join('/')} ms, load ${loadLocal.map((x) => x.toFixed(0)).join('/')} ms, empty ${loadEmpty.map((x) => x.toFixed(0)).join('/')} ms`,
      );
    }

    if (process.argv.includes('--no-replay')) return printResults(results);
    // 1,000 mutations queued offline, then replayed: study creates written as outbox.ts writes them
    // (entry with its refs, and the pending row it shows, built by the app's own functions), straight
    // into IndexedDB (the page's bundle is not reachable from here), then the network comes back.
    const stamp = Date.now();
    await page.goto(REPLAY_PAGE);
    await context.setOffline(true);
    const queued = craftCreates(REPLAYS, `Replay ${stamp}`);
    await idb(
      page,
      `const tx = db.transaction(['outbox', 'studies'], 'readwrite');
       for (const e of arg.entries) tx.objectStore('outbox').add(e);
       for (const r of arg.rows) tx.objectStore('studies').put(r);
       tx.oncomplete = () => resolve(true); tx.onerror = () => reject(tx.error);`,
      queued,
    );
    const r0 = Date.now();
    const answers: number[] = [];
    const onAnswer = (req: import('@playwright/test').Request) => {
      if (req.method() === 'POST' && req.url().endsWith('/v2/studies'))
        answers.push(req.timing().responseEnd);
    };
    page.on('requestfinished', onAnswer);
    await profile('replay', async () => {
      await context.setOffline(false);
      let lastLog = Date.now();
      await until(async () => {
        const left = await count(page, 'outbox');
        if (Date.now() - lastLog > 10_000) {
          lastLog = Date.now();
          console.log(`replay: ${left} entries left after ${Date.now() - r0} ms`);
        }
        return left === 0;
      }, 300_000);
    });
    page.off('requestfinished', onAnswer);
    if (answers.length)
      console.log(
        `replay: ${answers.length} POSTs from the page, median ${median(answers).toFixed(0)} ms each`,
      );
    const replay = Date.now() - r0;
    const check = await context.request.get(
      `/v2/studies?name=${encodeURIComponent(`Replay ${stamp} `)}&limit=1`,
    );
    const onServer = ((await check.json()) as { count: number }).count;
    results.push([
      `replay of ${REPLAYS} queued mutations`,
      `${replay} ms, ${onServer} on the server${onServer === REPLAYS ? ' (exactly once)' : ' (MISMATCH)'}`,
      '< 15000 ms',
    ]);
    // Same-run baseline: the server alone, 200 creates from Node with 4 in flight (what the replay
    // cannot go below: PGlite writes one request at a time).
    const b0 = Date.now();
    for (let i = 0; i < 200; i += 4)
      await Promise.all(
        [0, 1, 2, 3].map((k) =>
          context.request.post('/v2/studies', {
            data: { study: { name: `Baseline ${stamp} ${i + k}` } },
            headers: { 'Idempotency-Key': crypto.randomUUID() },
          }),
        ),
      );
    const perThousand = ((Date.now() - b0) / 200) * 1000;
    results.push([
      'server alone: 1,000 creates from Node (baseline)',
      `${perThousand.toFixed(0)} ms`,
      'info',
    ]);
  } finally {
    await browser.close();
    await stopServer(server);
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printResults(results);
}

function printResults(results: Array<[string, string, string]>): void {
  const width = Math.max(...results.map((r) => r[0].length));
  for (const [what, value, target] of results)
    console.log(`${what.padEnd(width)}  ${value}  [target ${target}]`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

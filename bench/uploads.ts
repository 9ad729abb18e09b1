// Upload benchmark: one file over loopback through the real client (the uploader in
// Chromium: worker, tus, SHA-1 per chunk, adaptive chunks, the OPFS copy) and through a plain
// `curl -T` PATCH of the same file to the same server, in one run. Prints both throughputs and their
// ratio (target ≥ 0.8), the server's peak memory, and the page's (renderer's) peak memory for a small
// and the big file (target: it does not grow with the file size).
// Chromium's own ceiling follows in the same browser: plain PATCHes of 64 MiB Blob slices, and of
// the same slices read into memory first (BENCH_RAW, BENCH_RAW_BYTES_MIB; BENCH_NOCOPY and BENCH_NOSW
// add measurement-only runs, see below).
// `--s3` runs the storage comparison instead: the same server on disk, then with the S3_* settings of
// an s3rver the bench starts (tests/api/s3-server.ts, its files in a temporary folder), the same file
// sent by `curl -T` and by the uploader to each; prints both throughputs and the ratio S3 / disk.
// Usage: npx tsx bench/uploads.ts [MiB, default 2048] [small MiB, default 256];
//        npx tsx bench/uploads.ts --s3 [MiB, default 256]. Needs Chromium and curl; `npm run build`
// first. Temporary files and data are deleted after.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { chromiumProcs, cpuByKind, cpuByThread, cpuMsOf, rssOf, rssPartsOf } from './lib/procs';
import { profilePage, profileWorkers, topSelf } from './lib/worker-profile';
import { startS3 } from '../tests/api/s3-server';

const execFileAsync = promisify(execFile);

const MiB = 1024 * 1024;
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
/** The storage comparison (disk against s3rver) in place of the client comparison. */
const s3Mode = process.argv.includes('--s3');
const bigMiB = Number(args[0] ?? (s3Mode ? 256 : 2048));
const smallMiB = Number(args[1] ?? 256);
const PORT = Number(process.env.BENCH_PORT ?? 8199);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench@lab.test', password: 'bench password 1' };
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const distDir = process.env.DIST_DIR || 'dist';
/** BENCH_PROFILE=<dir>: CPU profiles of the server (--cpu-prof) and of the upload worker (CDP) go there. */
const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;

/** Samples `measure` every 100 ms while `work` runs; returns the work's result and the peak. */
async function peakWhile<T>(
  measure: () => number,
  work: () => Promise<T>,
): Promise<{ result: T; peak: number }> {
  let peak = measure();
  const timer = setInterval(() => (peak = Math.max(peak, measure())), 100);
  try {
    return { result: await work(), peak };
  } finally {
    clearInterval(timer);
  }
}

function makeFile(dir: string, name: string, mib: number): string {
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  const block = crypto.randomBytes(MiB);
  for (let i = 0; i < mib; i++) {
    block.writeUInt32LE(i, 0); // no two MiB alike
    fs.writeSync(fd, block);
  }
  fs.closeSync(fd);
  return file;
}

/** The server in a child process, with the caller's environment and `extraEnv` over it. */
async function startServer(dataDir: string, extraEnv?: Record<string, string>): Promise<ChildProcess> {
  const prof = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      ...extraEnv,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      WORKER: 'off', // measure the upload, not the processing of random bytes
      UPLOAD_MAX_BYTES: String(1024 * 1024 * MiB),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const on = (c: Buffer) => {
      out += c.toString();
      if (/running at/.test(out)) resolve();
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return child;
}

async function login(): Promise<string> {
  const res = await fetch(`${BASE}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await res.json()) as { accessToken: { token: string } }).accessToken.token;
}

/** tus metadata of a single-file upload named `name`. */
const tusMeta = (name: string) =>
  [
    `filename ${Buffer.from(name).toString('base64')}`,
    `groupId ${Buffer.from(crypto.randomUUID()).toString('base64')}`,
    `groupSize ${Buffer.from('1').toString('base64')}`,
  ].join(',');

/** A tus resource made by hand, then the whole file in one `curl -T` PATCH (no checksum). */
async function curlUpload(file: string, token: string): Promise<number> {
  const meta = tusMeta(path.basename(file));
  const created = await fetch(`${BASE}/v2/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(fs.statSync(file).size),
      'upload-metadata': meta,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location)
    throw new Error(`create: ${created.status} ${await created.text()}`);
  const t = performance.now();
  // Not execFileSync: in the S3 comparison the bucket's server runs in this process's event loop.
  await execFileAsync('curl', [
    '-sS',
    '-f',
    '-X',
    'PATCH',
    '-T',
    file,
    '-H',
    `Authorization: Bearer ${token}`,
    '-H',
    'Tus-Resumable: 1.0.0',
    '-H',
    'Upload-Offset: 0',
    '-H',
    'Content-Type: application/offset+octet-stream',
    '-H',
    'Expect:',
    `${BASE}${location}`,
  ]);
  return (performance.now() - t) / 1000;
}

/** How a plain baseline sends each 64 MiB slice (Chromium's own ceiling). */
type RawBody = 'blob' | 'fetch-blob' | 'xhr-bytes' | 'fetch-bytes';

const RAW_LABEL: Record<RawBody, string> = {
  blob: 'plain XHR of 64 MiB Blob slices (no worker, checksum, copy)',
  'fetch-blob': 'plain fetch of 64 MiB Blob slices',
  'xhr-bytes': 'plain XHR of 64 MiB in-memory bytes (slice read into one reused buffer, then sent)',
  'fetch-bytes': 'plain fetch of 64 MiB in-memory bytes (same reused buffer)',
};

/**
 * BENCH_RAW=blob,xhr-bytes,fetch-blob,fetch-bytes: which plain baselines run after the uploader, in
 * order (default `blob,xhr-bytes`; `blob` is the figure of earlier sessions). fetch of Blob slices
 * was no cheaper than XHR, fetch of bytes as slow as XHR of bytes (bench/README.md).
 */
const rawBodies = (process.env.BENCH_RAW ?? 'blob,xhr-bytes')
  .split(',')
  .filter((b): b is RawBody => b in RAW_LABEL);
/**
 * The in-memory baselines send only the file's first BENCH_RAW_BYTES_MIB MiB (default 128): at
 * 4–11 MiB/s (bench/README.md, uploads) the whole file would hold the bench lock for minutes.
 */
const rawBytesLimit = Number(process.env.BENCH_RAW_BYTES_MIB ?? 128) * MiB;
/** BENCH_NOCOPY=1: one more uploader run without the OPFS copy (measurement: what the copy costs). */
const noCopyRun = process.env.BENCH_NOCOPY === '1';
/** BENCH_NOSW=1: the plain baselines run after the service worker is unregistered (measurement). */
const noServiceWorker = process.env.BENCH_NOSW === '1';

/**
 * Chromium's own ceiling: the same file sent from a page by plain PATCHes of 64 MiB slices to a
 * fresh tus resource — no worker, no checksum, no copy, no UI. `blob`: the Blob slice is the body
 * (Chromium reads the file on its side); `xhr-bytes`/`fetch-bytes`: each slice is first read (BYOB)
 * into one reused buffer, as the uploader reads it to hash it, and those bytes are the body.
 * Seconds in all, and seconds of it spent reading slices into memory.
 */
async function rawUpload(
  page: Page,
  file: string,
  token: string,
  body: RawBody,
): Promise<{ seconds: number; readSeconds: number; bytes: number }> {
  await page.evaluate(() => {
    if (document.getElementById('bench-raw-file')) return;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-raw-file';
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator('#bench-raw-file').setInputFiles(file);
  // tsx names the page function's inner functions through a helper the page lacks.
  await page.evaluate('window.__name = (f) => f');
  return page.evaluate(
    async ({ token, meta, body, limit }) => {
      const picked = (document.getElementById('bench-raw-file') as HTMLInputElement).files![0];
      const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
      const created = await fetch('/v2/uploads', {
        method: 'POST',
        headers: { ...auth, 'upload-length': String(picked.size), 'upload-metadata': meta },
      });
      const url = created.headers.get('location');
      if (created.status !== 201 || !url) throw new Error(`create: ${created.status}`);
      const step = 64 * 1024 * 1024;
      let memory = new ArrayBuffer(body.endsWith('bytes') ? step : 0);
      let readMs = 0;
      const readSlice = async (slice: Blob): Promise<Uint8Array<ArrayBuffer>> => {
        const t0 = performance.now();
        const reader = slice.stream().getReader({ mode: 'byob' });
        let filled = 0;
        while (filled < slice.size) {
          const { value, done } = await reader.read(new Uint8Array(memory, filled, slice.size - filled));
          if (!value) throw new Error('read failed');
          memory = value.buffer as ArrayBuffer;
          filled += value.byteLength;
          if (done) break;
        }
        reader.releaseLock();
        readMs += performance.now() - t0;
        return new Uint8Array(memory, 0, filled);
      };
      const headers = (offset: number) => ({
        ...auth,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      });
      const t = performance.now();
      const end = body === 'blob' || body === 'fetch-blob' ? picked.size : Math.min(picked.size, limit);
      for (let offset = 0; offset < end; offset += step) {
        const slice = picked.slice(offset, Math.min(end, offset + step));
        if (body === 'fetch-bytes' || body === 'fetch-blob') {
          const res = await fetch(url, {
            method: 'PATCH',
            headers: headers(offset),
            body: body === 'fetch-blob' ? slice : await readSlice(slice),
          });
          if (res.status !== 204) throw new Error(`PATCH ${res.status}`);
          continue;
        }
        const sent: Blob | Uint8Array<ArrayBuffer> = body === 'blob' ? slice : await readSlice(slice);
        await new Promise<void>((resolve, reject) => {
          const xhr = new XMLHttpRequest();
          xhr.open('PATCH', url);
          for (const [k, v] of Object.entries(headers(offset))) xhr.setRequestHeader(k, v);
          xhr.onload = () => (xhr.status === 204 ? resolve() : reject(new Error(`PATCH ${xhr.status}`)));
          xhr.onerror = () => reject(new Error('PATCH failed'));
          xhr.send(sent);
        });
      }
      return { seconds: (performance.now() - t) / 1000, readSeconds: readMs / 1000, bytes: end };
    },
    { token, meta: tusMeta(`raw-${body}-${path.basename(file)}`), body, limit: rawBytesLimit },
  );
}

/**
 * Page code (a string: tsx would name its functions with a helper the page lacks) that resolves once
 * the row labelled `label` has left the sending states, watched in the page: polling it from the
 * bench every 50 ms cost the page's main thread about a second of CPU per GiB.
 */
const whenSent = (label: string) => `new Promise((resolve) => {
  const selector = '[data-testid="upload-row"][aria-label=${JSON.stringify(label)}]';
  const sending = /^(waiting|waiting_for_upload.*|waiting_for_upload_metadata)$/;
  let observer, timer;
  const finish = () => {
    const status = document.querySelector(selector)?.getAttribute('data-status');
    if (!status || sending.test(status)) return;
    observer.disconnect();
    clearInterval(timer);
    resolve();
  };
  observer = new MutationObserver(finish);
  observer.observe(document.body, { attributes: true, attributeFilter: ['data-status'], subtree: true });
  timer = setInterval(finish, 1000); // a row replaced whole
  finish();
})`;

interface BrowserRun {
  seconds: number;
  /** Peak RSS of the renderer (the page and its workers live there). */
  pagePeak: number;
  /** The renderer's RSS at its peak by kind of memory. */
  pageParts: string;
  /** Peak RSS of the browser process (blob storage, the OPFS backend, the network stack). */
  browserPeak: number;
  /** CPU ms per Chromium process kind during the upload. */
  cpu: Record<string, number>;
  /** CPU ms of the busiest Chromium threads during the upload. */
  threads: Array<[string, number]>;
  /** The plain baselines of the same file in the same browser (when asked), in order. */
  raws: RawRun[];
}

interface RawRun {
  body: RawBody;
  seconds: number;
  readSeconds: number;
  /** Bytes sent (the in-memory baselines send the first rawBytesLimit only). */
  bytes: number;
  /** CPU ms per Chromium process kind during this baseline. */
  cpu: Record<string, number>;
  /** CPU ms of the server during this baseline. */
  serverCpu: number;
}

/** The uploader in a fresh Chromium: seconds from the pick to the last byte confirmed. */
async function browserUpload(
  file: string,
  profileAs?: string,
  raw?: { token: string; bodies: RawBody[]; serverCpu(): number; uploaderDone(): void },
  keepCopy = true,
): Promise<BrowserRun> {
  const marker = `--tessera-bench=${crypto.randomUUID()}`;
  // A profile on disk, as people use the browser: in a fresh incognito-like context Chromium keeps
  // the origin's storage (the OPFS copy of the file) in the browser process's memory.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-uploads-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: ['--no-first-run', marker],
    baseURL: BASE,
  });
  try {
    // Measurement only: the uploader as in a browser that refuses to keep a copy (no OPFS copy).
    if (!keepCopy) await context.addInitScript("localStorage.setItem('tessera.uploads.keepFiles', 'off')");
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/signin');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/dashboard/);
    await page.getByRole('button', { name: 'Upload Images' }).click();
    const name = path.basename(file);
    const procs = () => chromiumProcs(marker);
    /** What the renderer's RSS was made of at its peak. */
    let pageParts = '';
    let pageMax = 0;
    const peakOf = (kind: string) => () =>
      [...procs()].reduce((n, [pid, k]) => {
        if (k !== kind) return n;
        const rss = rssOf(pid);
        if (kind === 'renderer' && rss > pageMax) [pageMax, pageParts] = [rss, rssPartsOf(pid)];
        return Math.max(n, rss);
      }, 0);
    const profiles = profileDir && profileAs ? await profileWorkers(page) : undefined;
    const pageProfile = profileDir && profileAs ? await profilePage(page) : undefined;
    const cpu = cpuByKind(procs);
    const threads = cpuByThread(procs);
    let browserPeak = 0;
    const { result: seconds, peak } = await peakWhile(peakOf('renderer'), async () => {
      const t = performance.now();
      const { peak: bp, result } = await peakWhile(peakOf('browser'), async () => {
        await page.getByTestId('upload-file-input').setInputFiles(file);
        const row = page.locator(`[data-testid="upload-row"][aria-label="Upload ${name}"]`);
        await row.waitFor();
        await page.evaluate(whenSent(`Upload ${name}`));
        return (performance.now() - t) / 1000;
      });
      browserPeak = bp;
      return result;
    });
    const used = cpu.stop();
    const threadsUsed = threads.stop();
    if (profiles && pageProfile && profileAs) {
      const all = [
        { url: 'page', profile: await pageProfile.stop() },
        ...(await profiles.stop()).map((w) => ({ url: `worker ${w.url}`, profile: w.profile })),
      ];
      for (const [i, w] of all.entries()) {
        const out = path.join(profileDir!, `${profileAs}-${i}.cpuprofile`);
        fs.writeFileSync(out, JSON.stringify(w.profile));
        console.log(`\n${w.url} (${out}), self time:`);
        for (const [fn, ms] of topSelf(w.profile)) console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${fn}`);
      }
    }
    raw?.uploaderDone();
    if (raw && noServiceWorker) {
      // Measurement: the baselines from a page no service worker controls (its fetch handler sees
      // every request of a controlled page, bodies included).
      await page.evaluate(async () => {
        for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
      });
      await page.reload();
      if (await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))
        throw new Error('the page is still controlled by a service worker');
    }
    const raws: RawRun[] = [];
    for (const body of raw?.bodies ?? []) {
      const server0 = raw!.serverCpu();
      const rawCpu = cpuByKind(procs);
      const run = await rawUpload(page, file, raw!.token, body);
      raws.push({ body, ...run, cpu: rawCpu.stop(), serverCpu: raw!.serverCpu() - server0 });
    }
    return {
      seconds,
      pagePeak: peak,
      pageParts,
      browserPeak,
      cpu: used,
      threads: threadsUsed,
      raws,
    };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .filter(([, ms]) => ms >= 50)
    .sort((a, b) => b[1] - a[1])
    .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');

/** Stops a server child and waits for its exit. */
async function stopServer(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}

/** Bytes of the objects s3rver holds under `dir` (its object files end in `._S3rver_object`). */
function objectBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('._S3rver_object'))
      n += fs.statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

interface StorageRun {
  curlSeconds: number;
  curlServerCpu: number;
  /** CPU of this process during curl's PATCH: s3rver runs here in the S3 run. */
  curlBenchCpu: number;
  uploaderSeconds: number;
  uploaderServerCpu: number;
  /** Bytes of the objects in the bucket after both uploads (S3 run only). */
  stored?: number;
}

/** One file by curl, then by the uploader, to a fresh server on disk or on a fresh s3rver. */
async function storageRun(tmp: string, file: string, target: 'disk' | 's3'): Promise<StorageRun> {
  const s3 = target === 's3' ? await startS3('tessera-bench') : undefined;
  let server: ChildProcess | undefined;
  try {
    // An empty S3_BUCKET keeps the disk run on disk whatever the caller's environment holds.
    server = await startServer(path.join(tmp, `data-${target}`), s3?.env ?? { S3_BUCKET: '' });
    const pid = server.pid!;
    const token = await login();
    let cpu0 = cpuMsOf(pid);
    const own0 = process.cpuUsage();
    const curlSeconds = await curlUpload(file, token);
    const own = process.cpuUsage(own0);
    const curlServerCpu = cpuMsOf(pid) - cpu0;
    cpu0 = cpuMsOf(pid);
    const uploader = await browserUpload(file);
    return {
      curlSeconds,
      curlServerCpu,
      curlBenchCpu: (own.user + own.system) / 1000,
      uploaderSeconds: uploader.seconds,
      uploaderServerCpu: cpuMsOf(pid) - cpu0,
      stored: s3 ? objectBytes(s3.directory) : undefined,
    };
  } finally {
    await stopServer(server);
    await s3?.close();
  }
}

/** The S3 path against the disk path: same file, same clients, one run. */
async function compareStorage(tmp: string): Promise<void> {
  console.log(`making a ${bigMiB} MiB file… load average ${loadAverage()}`);
  const file = makeFile(tmp, 'bench-s3.czi', bigMiB);
  const disk = await storageRun(tmp, file, 'disk');
  const s3 = await storageRun(tmp, file, 's3');
  const rate = (s: number) => `${(bigMiB / s).toFixed(0)} MiB/s`;
  const cpu = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`\nupload of one ${bigMiB} MiB file over loopback, disk then S3 (s3rver in the bench process)`);
  for (const [name, r] of [
    ['disk', disk],
    ['S3  ', s3],
  ] as const) {
    console.log(
      `  ${name} curl -T   ${r.curlSeconds.toFixed(1)} s (${rate(r.curlSeconds)}); server CPU ${cpu(r.curlServerCpu)}${r.stored === undefined ? '' : `, s3rver (the bench process) ${cpu(r.curlBenchCpu)}`}`,
    );
    console.log(
      `  ${name} uploader  ${r.uploaderSeconds.toFixed(1)} s (${rate(r.uploaderSeconds)}); server CPU ${cpu(r.uploaderServerCpu)}`,
    );
  }
  console.log(
    `  ratio S3 / disk: curl ${(disk.curlSeconds / s3.curlSeconds).toFixed(2)}, uploader ${(disk.uploaderSeconds / s3.uploaderSeconds).toFixed(2)}`,
  );
  console.log(
    `  objects in the bucket after the S3 run: ${((s3.stored ?? 0) / MiB).toFixed(0)} MiB (2 uploads)`,
  );
  console.log(`  load average ${loadAverage()} (1, 5, 15 min) on ${os.cpus().length} cores`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(distDir, 'index.html')))
    throw new Error(`Build the app first: DIST_DIR=${distDir} npm run build`);
  if (s3Mode) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-uploads-bench-'));
    try {
      return await compareStorage(tmp);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-uploads-bench-'));
  let server: ChildProcess | undefined;
  try {
    console.log(`making ${bigMiB} MiB and ${smallMiB} MiB files…`);
    const big = makeFile(tmp, 'bench-big.czi', bigMiB);
    const small = makeFile(tmp, 'bench-small.czi', smallMiB);
    server = await startServer(path.join(tmp, 'data'));
    const pid = server.pid!;
    const token = await login();

    let cpu0 = cpuMsOf(pid);
    const curl = await peakWhile(
      () => rssOf(pid),
      () => curlUpload(big, token),
    );
    const curlServerCpu = cpuMsOf(pid) - cpu0;
    const smallRun = await browserUpload(small);
    cpu0 = cpuMsOf(pid);
    let bigServerCpu = 0;
    const bigRun = await peakWhile(
      () => rssOf(pid),
      () =>
        browserUpload(big, 'big', {
          token,
          bodies: rawBodies,
          serverCpu: () => cpuMsOf(pid),
          uploaderDone: () => (bigServerCpu = cpuMsOf(pid) - cpu0),
        }),
    );

    cpu0 = cpuMsOf(pid);
    const noCopy = noCopyRun ? await browserUpload(big, undefined, undefined, false) : undefined;
    const noCopyServerCpu = cpuMsOf(pid) - cpu0;

    const mbps = (s: number) => (bigMiB / s).toFixed(0);
    const ratio = curl.result / bigRun.result.seconds;
    const mb = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
    const big$ = bigRun.result;
    console.log('\nupload of one file over loopback');
    console.log(
      `  curl -T          ${bigMiB} MiB in ${curl.result.toFixed(1)} s  (${mbps(curl.result)} MiB/s); server CPU ${(curlServerCpu / 1000).toFixed(1)} s`,
    );
    console.log(
      `  Chromium client  ${bigMiB} MiB in ${big$.seconds.toFixed(1)} s  (${mbps(big$.seconds)} MiB/s); server CPU ${(bigServerCpu / 1000).toFixed(1)} s; ${cpuText(big$.cpu)}; CPU per GiB ${((Object.values(big$.cpu).reduce((x, y) => x + y, 0) + bigServerCpu) / 1000 / (bigMiB / 1024)).toFixed(1)} s (server included)`,
    );
    console.log(
      `  busiest Chromium threads (uploader): ${big$.threads
        .filter(([, ms]) => ms >= 200)
        .slice(0, 10)
        .map(([t, ms]) => `${t} ${(ms / 1000).toFixed(1)} s`)
        .join(', ')}`,
    );
    if (noCopy)
      console.log(
        `  Chromium client without the OPFS copy (measurement only) ${bigMiB} MiB in ${noCopy.seconds.toFixed(1)} s  (${mbps(noCopy.seconds)} MiB/s), ratio to curl ${(curl.result / noCopy.seconds).toFixed(2)}; server CPU ${(noCopyServerCpu / 1000).toFixed(1)} s; ${cpuText(noCopy.cpu)}; CPU per GiB ${((Object.values(noCopy.cpu).reduce((x, y) => x + y, 0) + noCopyServerCpu) / 1000 / (bigMiB / 1024)).toFixed(1)} s (server included)`,
      );
    for (const r of big$.raws)
      console.log(
        `  Chromium, ${RAW_LABEL[r.body]}: ${mb(r.bytes)} in ${r.seconds.toFixed(1)} s (${(r.bytes / MiB / r.seconds).toFixed(0)} MiB/s), ratio to curl ${((r.bytes / MiB / r.seconds) * (curl.result / bigMiB)).toFixed(2)}${!r.body.endsWith('bytes') ? '' : `, of it reading ${r.readSeconds.toFixed(1)} s`}; server CPU ${(r.serverCpu / 1000).toFixed(1)} s; ${cpuText(r.cpu)}; CPU per GiB ${((Object.values(r.cpu).reduce((a, b) => a + b, 0) + r.serverCpu) / 1000 / (r.bytes / 1024 / MiB)).toFixed(1)} s (server included)`,
      );
    console.log(`  throughput ratio ${ratio.toFixed(2)} (target ≥ 0.8) ${ratio >= 0.8 ? 'met' : 'NOT met'}`);
    console.log(
      `  server peak RSS  curl ${mb(curl.peak)}, Chromium (uploader, then plain XHR) ${mb(bigRun.peak)}`,
    );
    console.log(
      `  page peak RSS    ${smallMiB} MiB file ${mb(smallRun.pagePeak)}, ${bigMiB} MiB file ${mb(big$.pagePeak)}`,
    );
    console.log(
      `  page RSS at peak ${smallMiB} MiB: ${smallRun.pageParts}; ${bigMiB} MiB: ${big$.pageParts}`,
    );
    console.log(
      `  browser process  ${smallMiB} MiB file ${mb(smallRun.browserPeak)}, ${bigMiB} MiB file ${mb(big$.browserPeak)}`,
    );
  } finally {
    await stopServer(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();

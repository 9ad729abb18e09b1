// Upload benchmark (issue 5): one file over loopback through the real client (the uploader in
// Chromium: worker, tus, SHA-1 per chunk, adaptive chunks, the OPFS copy) and through a plain
// `curl -T` PATCH of the same file to the same server, in one run. Prints both throughputs and their
// ratio (target ≥ 0.8), the server's peak memory, and the page's (renderer's) peak memory for a small
// and the big file (target: it does not grow with the file size).
// Usage: npx tsx bench/uploads.ts [MiB, default 2048] [small MiB, default 256]. Needs Chromium and curl;
// `npm run build` first. Temporary files and data are deleted after.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumProcs, cpuByKind, cpuByThread, cpuMsOf, rssOf, rssPartsOf } from './lib/procs';
import { profilePage, profileWorkers, topSelf } from './lib/worker-profile';

const MiB = 1024 * 1024;
const bigMiB = Number(process.argv[2] ?? 2048);
const smallMiB = Number(process.argv[3] ?? 256);
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

async function startServer(dataDir: string): Promise<ChildProcess> {
  const prof = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
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
  execFileSync('curl', [
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

/**
 * Chromium's own ceiling: the same file sent from a page by plain XMLHttpRequest PATCHes of 64 MiB
 * Blob slices to a fresh tus resource — no worker, no checksum, no copy, no UI. Seconds.
 */
async function rawXhrUpload(page: Page, file: string, token: string): Promise<number> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-raw-file';
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator('#bench-raw-file').setInputFiles(file);
  return page.evaluate(
    async ({ token, meta }) => {
      const picked = (document.getElementById('bench-raw-file') as HTMLInputElement).files![0];
      const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
      const created = await fetch('/v2/uploads', {
        method: 'POST',
        headers: { ...auth, 'upload-length': String(picked.size), 'upload-metadata': meta },
      });
      const url = created.headers.get('location');
      if (created.status !== 201 || !url) throw new Error(`create: ${created.status}`);
      const t = performance.now();
      const step = 64 * 1024 * 1024;
      for (let offset = 0; offset < picked.size; offset += step) {
        await new Promise<void>((resolve, reject) => {
          const xhr = new XMLHttpRequest();
          xhr.open('PATCH', url);
          for (const [k, v] of Object.entries(auth)) xhr.setRequestHeader(k, v);
          xhr.setRequestHeader('upload-offset', String(offset));
          xhr.setRequestHeader('content-type', 'application/offset+octet-stream');
          xhr.onload = () => (xhr.status === 204 ? resolve() : reject(new Error(`PATCH ${xhr.status}`)));
          xhr.onerror = () => reject(new Error('PATCH failed'));
          xhr.send(picked.slice(offset, offset + step));
        });
      }
      return (performance.now() - t) / 1000;
    },
    { token, meta: tusMeta(`raw-${path.basename(file)}`) },
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
  /** Seconds of the plain-XHR upload of the same file in the same browser (when asked). */
  rawSeconds?: number;
  /** CPU ms per Chromium process kind during the plain-XHR upload. */
  rawCpu?: Record<string, number>;
}

/** The uploader in a fresh Chromium: seconds from the pick to the last byte confirmed. */
async function browserUpload(
  file: string,
  profileAs?: string,
  raw?: { token: string; before(): void; after(): void },
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
    raw?.before();
    const rawCpu = raw ? cpuByKind(procs) : undefined;
    const rawSeconds = raw ? await rawXhrUpload(page, file, raw.token) : undefined;
    raw?.after();
    return {
      seconds,
      pagePeak: peak,
      pageParts,
      browserPeak,
      cpu: used,
      threads: threadsUsed,
      rawSeconds,
      rawCpu: rawCpu?.stop(),
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

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(distDir, 'index.html')))
    throw new Error(`Build the app first: DIST_DIR=${distDir} npm run build`);
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
    let rawServerCpu = 0;
    const bigRun = await peakWhile(
      () => rssOf(pid),
      () =>
        browserUpload(big, 'big', {
          token,
          before: () => {
            bigServerCpu = cpuMsOf(pid) - cpu0;
            cpu0 = cpuMsOf(pid);
          },
          after: () => (rawServerCpu = cpuMsOf(pid) - cpu0),
        }),
    );

    const mbps = (s: number) => (bigMiB / s).toFixed(0);
    const ratio = curl.result / bigRun.result.seconds;
    const mb = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
    const big$ = bigRun.result;
    console.log('\nupload of one file over loopback');
    console.log(
      `  curl -T          ${bigMiB} MiB in ${curl.result.toFixed(1)} s  (${mbps(curl.result)} MiB/s); server CPU ${(curlServerCpu / 1000).toFixed(1)} s`,
    );
    console.log(
      `  Chromium client  ${bigMiB} MiB in ${big$.seconds.toFixed(1)} s  (${mbps(big$.seconds)} MiB/s); server CPU ${(bigServerCpu / 1000).toFixed(1)} s; ${cpuText(big$.cpu)}`,
    );
    console.log(
      `  busiest Chromium threads (uploader): ${big$.threads
        .filter(([, ms]) => ms >= 200)
        .slice(0, 10)
        .map(([t, ms]) => `${t} ${(ms / 1000).toFixed(1)} s`)
        .join(', ')}`,
    );
    if (big$.rawSeconds)
      console.log(
        `  Chromium, plain XHR of 64 MiB slices (no worker, checksum, copy): ${big$.rawSeconds.toFixed(1)} s (${mbps(big$.rawSeconds)} MiB/s), ratio to curl ${(curl.result / big$.rawSeconds).toFixed(2)}; server CPU ${(rawServerCpu / 1000).toFixed(1)} s; ${cpuText(big$.rawCpu ?? {})}`,
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
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();

// Tessera as a cluster of real processes on PostgreSQL and an S3 bucket (docs/deploy.md): two web
// servers that run no jobs (WORKER=off) and workers (`npm run worker`), each its own process with its
// own DATA_DIR, started as an operator starts them. An upload begun through server A and cut is
// resumed through server B; a worker takes its processing job and is killed with SIGKILL mid-job; a
// second worker takes the job over when the lease runs out and finishes it; server A then serves the
// slide's tiles and thumbnail from the bucket, and no server's DATA_DIR holds a byte of the slide.
// PostgreSQL only (PGlite is one process).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { S3 } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, readPrinted } from '../e2e/server-process';
import { ADMIN, PG_ADMIN_URL, dbTargets } from './helpers';
import { startS3, type TestS3 } from './s3-server';
import { postgresTemplate } from './template-databases';
import { TUS, encodeMetadata, sha1 } from './uploads-tus';

const postgres = (await dbTargets()).find((t) => t.name === 'postgres');
const FIXTURE = path.resolve(import.meta.dirname, '../../../shared/fixtures/czi/RGB-8bit.czi');
/** How soon a dead worker's job is taken over (JOB_LEASE_MS). */
const LEASE_MS = 3_000;

interface Proc {
  child: ChildProcess;
  dataDir: string;
  out: () => string;
}

describe.runIf(postgres)('two web servers and workers as processes on PostgreSQL and S3', () => {
  let s3: TestS3;
  let dbName: string;
  let dbUrl: string;
  let sql: pg.Client;
  const procs: Proc[] = [];

  /** Starts `entry` as its own process with the cluster's settings and a DATA_DIR of its own. */
  function start(entry: string, env: Record<string, string>): Proc {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cluster-'));
    let printed = '';
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      env: {
        ...process.env,
        ...s3.env,
        DATABASE_URL: dbUrl,
        DATA_DIR: dataDir,
        DIST_DIR: path.join(dataDir, 'no-dist'),
        HOST: '127.0.0.1',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        JOB_LEASE_MS: String(LEASE_MS),
        JOB_CONCURRENCY: '1',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => (printed += chunk.toString());
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const proc = { child, dataDir, out: () => printed };
    procs.push(proc);
    return proc;
  }

  async function webServer(): Promise<{ proc: Proc; url: string }> {
    const port = await freePort();
    const proc = start('src/server/main.ts', { PORT: String(port), WORKER: 'off' });
    const url = await readPrinted(proc.child, (text) => /running at (\S+)/.exec(text)?.[1], 90_000);
    return { proc, url };
  }

  /** A worker process, once it says it runs: its id in the queue. */
  async function worker(): Promise<{ proc: Proc; id: string }> {
    const proc = start('src/server/jobs/worker-main.ts', {});
    const id = await readPrinted(proc.child, (text) => /job worker (\S+) started/.exec(text)?.[1], 90_000);
    return { proc, id };
  }

  const jobOf = async (imageId: string) =>
    (
      await sql.query<{ status: string; attempts: number; locked_by: string | null }>(
        `SELECT status, attempts, locked_by FROM jobs WHERE kind = 'process-image' AND payload->>'imageId' = $1`,
        [imageId],
      )
    ).rows[0];

  beforeAll(async () => {
    s3 = await startS3();
    dbName = `tessera_t_${crypto.randomBytes(6).toString('hex')}`;
    const template = await postgresTemplate(PG_ADMIN_URL);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${template}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    sql = new pg.Client({ connectionString: dbUrl });
    await sql.connect();
  });

  afterAll(async () => {
    for (const { child } of procs)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(
      procs.map(({ child }) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise((resolve) => child.once('exit', resolve)),
      ),
    );
    for (const { dataDir } of procs) fs.rmSync(dataDir, { recursive: true, force: true });
    await sql?.end();
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await s3?.close();
  });

  it('resumes an upload on another server, survives a killed worker, and serves from the bucket', async () => {
    // Started one after the other: the first creates the administrator, the second finds it.
    const a = await webServer();
    const b = await webServer();
    const signIn = await fetch(`${a.url}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(signIn.status).toBe(200);
    const token = ((await signIn.json()) as { accessToken: { token: string } }).accessToken.token;
    const auth = { authorization: `Bearer ${token}`, ...TUS };

    // The upload: created and half sent through A, the rest through B after asking B where it stands.
    const bytes = fs.readFileSync(FIXTURE);
    const groupId = crypto.randomUUID();
    const created = await fetch(`${a.url}/v2/uploads`, {
      method: 'POST',
      headers: {
        ...auth,
        'upload-length': String(bytes.length),
        'upload-metadata': encodeMetadata({ filename: 'RGB-8bit.czi', groupId, groupSize: 1 }),
      },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, a.url).pathname;
    const patch = (base: string, offset: number, body: Buffer) =>
      fetch(`${base}${location}`, {
        method: 'PATCH',
        headers: {
          ...auth,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
          'upload-checksum': `sha1 ${sha1(body)}`,
        },
        body: new Uint8Array(body),
      });
    const half = Math.floor(bytes.length / 2);
    expect((await patch(a.url, 0, bytes.subarray(0, half))).status).toBe(204);
    const head = await fetch(`${b.url}${location}`, { method: 'HEAD', headers: auth });
    expect(Number(head.headers.get('upload-offset'))).toBe(half);
    expect((await patch(b.url, half, bytes.subarray(half))).status).toBe(204);

    const group = await fetch(`${b.url}/v2/upload-groups/${groupId}`, { headers: auth });
    expect(group.status).toBe(200);
    const imageId = ((await group.json()) as { result: { image: { id: string } } }).result.image.id;
    // Neither web server runs jobs: the processing waits for a worker.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await jobOf(imageId)).toMatchObject({ status: 'queued', attempts: 0 });

    // The first worker takes the job and is killed in the middle of it.
    const first = await worker();
    await expect
      .poll(async () => (await jobOf(imageId)).locked_by, { timeout: 60_000, interval: 10 })
      .toBe(first.id);
    first.proc.child.kill('SIGKILL');
    await new Promise((resolve) => first.proc.child.once('exit', resolve));
    expect(await jobOf(imageId), first.proc.out()).toMatchObject({ status: 'running', attempts: 1 });

    // The second takes it over once the dead worker's lease has run out, and finishes it.
    const second = await worker();
    await expect
      .poll(async () => (await jobOf(imageId)).status, { timeout: 90_000, interval: 200 })
      .toBe('done');
    expect((await jobOf(imageId)).attempts).toBe(2);
    expect(second.proc.out()).not.toContain('"level":50');

    // Server A serves the slide from the bucket: its layers, a full-resolution tile and the thumbnail.
    const get = (url: string) => fetch(`${a.url}/v2/images/${imageId}/tiles/${url}`, { headers: auth });
    const layers = await get('layers.json');
    expect(layers.status).toBe(200);
    const manifest = (await layers.json()) as { width: number; height: number; layers: { name: string }[] };
    const top = Math.ceil(Math.log2(Math.max(manifest.width, manifest.height)));
    const tile = await get(`${manifest.layers[0].name}_files/${top}/0_0.jpeg`);
    expect([tile.status, tile.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await tile.arrayBuffer()).byteLength).toBeGreaterThan(1_000);
    const thumbnail = await get('thumbnail.jpg');
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);

    // Every byte of the slide and of what was made from it is in the bucket, none on a server's disk.
    const bucket = new S3({
      endpoint: s3.env.S3_ENDPOINT,
      region: s3.env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY },
    });
    const listed = await bucket.listObjectsV2({ Bucket: s3.bucket, Prefix: `derived/${imageId}/` });
    bucket.destroy();
    expect((listed.Contents ?? []).map((o) => o.Key)).toContain(`derived/${imageId}/pyramid.pack`);
    const onDisk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
        .filter((file) => fs.statSync(file).size > 0);
    for (const server of [a, b]) expect(onDisk(server.proc.dataDir)).toEqual([]);
  }, 300_000);
});

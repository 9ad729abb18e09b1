// Two servers on one PostgreSQL and one storage take the same upload: a PATCH through server B while
// server A still writes it waits until A's request has been stopped (tus's drain), never writes beside
// it; the upload then finishes through B and is whole through A. PostgreSQL only (PGlite is one process).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';
import { ADMIN, dbTargets, login } from './helpers';
import { TUS, tusClient } from './uploads-tus';

const postgres = (await dbTargets()).find((t) => t.name === 'postgres');

describe.runIf(postgres)('one upload through two servers on PostgreSQL', () => {
  let dataDir: string;
  let first: Database & { drop(): Promise<void> };
  let second: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let token: string;
  let aRequest: http.ClientRequest | undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-two-'));
    const config = loadConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist') });
    first = await postgres!.open();
    a = await buildApp({ config, database: first });
    await bootstrap(a.ctx.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password });
    // The second server: its own process state, the same database and storage.
    const url = await first.query<{ db: string }>('SELECT current_database() AS db');
    const pgUrl = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    pgUrl.pathname = `/${url[0].db}`;
    second = await openDatabase(pgUrl.toString());
    b = await buildApp({ config, database: second });
    await Promise.all([a.listen({ port: 0, host: '127.0.0.1' }), b.ready()]);
    token = (await login(b)).access;
  });
  afterAll(async () => {
    aRequest?.destroy();
    await Promise.all([a?.close(), b?.close()]);
    await second?.close();
    await first?.close();
    await first?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops A’s request before B writes, then finishes through B', async () => {
    const bytes = crypto.randomBytes(768 * 1024);
    const created = await tusClient(a, token).create({ filename: 'two-servers.czi', size: bytes.length });
    expect(created.res.statusCode).toBe(201);
    const location = created.location!;

    // A: a PATCH that sends a quarter and then stalls (a client whose network went away).
    const port = (a.server.address() as AddressInfo).port;
    let aEndedAt = 0;
    aRequest = http.request({
      host: '127.0.0.1',
      port,
      method: 'PATCH',
      path: location,
      headers: {
        ...TUS,
        authorization: `Bearer ${token}`,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
        'content-length': String(bytes.length),
      },
    });
    const aEnded = new Promise<void>((resolve) => {
      const end = () => {
        aEndedAt ||= Date.now();
        resolve();
      };
      aRequest!.on('response', (res) => {
        res.resume();
        end();
      });
      aRequest!.on('error', end);
      aRequest!.on('close', end);
    });
    aRequest.write(bytes.subarray(0, 192 * 1024));
    // A holds the upload's lock (an advisory lock every server sees) while it waits for more bytes.
    await expect
      .poll(
        async () =>
          (
            await first.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'",
            )
          )[0].n,
        { timeout: 10_000 },
      )
      .toBe(1);

    // B: the same upload resumed through the other server.
    const offset = Number((await tusClient(b, token).head(location)).headers['upload-offset']);
    const bAnswer = await tusClient(b, token).patch(location, offset, bytes.subarray(offset));
    const bAnsweredAt = Date.now();
    await aEnded;
    expect(aEndedAt).toBeGreaterThan(0);
    expect(aEndedAt).toBeLessThanOrEqual(bAnsweredAt);
    // A may have written a little more before it stopped: then B's offset is stale (409) and the
    // client asks again, as a tus client does.
    let done = bAnswer;
    if (done.statusCode === 409) {
      const now = Number((await tusClient(b, token).head(location)).headers['upload-offset']);
      done = await tusClient(b, token).patch(location, now, bytes.subarray(now));
    }
    expect(done.statusCode).toBe(204);
    const through = await tusClient(a, token).head(location);
    expect(Number(through.headers['upload-offset'])).toBe(bytes.length);
  });
});

// Bad input is a 4xx naming the field, and internal text never reaches a user (docs/security.md
// "Input"): NUL bytes in filters, bodies and upload metadata, JSON nested 10,000 deep, an .mrxs with
// no name before its extension, and a full disk on tus creation (a 507 a person can act on). On PGlite
// and PostgreSQL.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputText, MAX_JSON_DEPTH } from '../../src/api/input';
import { UploadOwnText } from '../../src/api/uploads';
import { uploads } from '../../src/server/db/schema';
import { addLabFixture, bearer, dbTargets, startApp, type LabFixture, type TestApp } from './helpers';
import { tusClient } from './uploads-tus';

const targets = await dbTargets();
const deepJson = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

/** No Node error text, server path or driver code in what a user reads. */
function expectNoInternals(body: string, dataDir: string) {
  expect(body).not.toContain(dataDir);
  expect(body).not.toMatch(/ENOENT|ENOSPC|\bat \w+ \(|invalid byte sequence|22021|stack/i);
}

describe.each(targets)('bad input on $name', (target) => {
  let t: TestApp;
  let lab: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(lab.superAdmin.token), 'content-type': 'application/json' },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });

  it('answers a NUL byte in a text filter with a 400 naming the filter', async () => {
    const res = await call('GET', '/v2/studies?name=a%00b');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: `querystring.name: ${InputText.nul}`, code: 'VALIDATION' });
    expectNoInternals(res.body, t.dataDir);
  });

  it('answers a NUL byte in a body field with a 400 naming the field, and stores nothing', async () => {
    const res = await call('POST', '/v2/studies', { study: { name: 'a\u0000b' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`body.study.name: ${InputText.nul}`);
    expectNoInternals(res.body, t.dataDir);
    const list = await call('GET', '/v2/studies');
    expect(list.json().count).toBe(0);
  });

  it('answers JSON nested 10,000 deep with a 400 naming the field', async () => {
    const payload = `{"entries":[{"id":"k1","method":"POST","path":"/studies","body":${deepJson(10_000)}}]}`;
    const res = await call('POST', '/v2/sync/batch', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`body.entries: ${InputText.tooDeep}`);
    // As deep as allowed is still taken to the route (which judges it on its own).
    const fits = `{"entries":[{"id":"k2","method":"POST","path":"/studies","body":${deepJson(MAX_JSON_DEPTH - 4)}}]}`;
    expect((await call('POST', '/v2/sync/batch', fits)).statusCode).toBe(200);
  });

  it('refuses upload metadata with a NUL byte, naming the field, before anything is stored', async () => {
    const tus = tusClient(t.app, lab.member.token);
    const before = (await t.app.ctx.db.select().from(uploads)).length;
    const res = (
      await tus.create({
        filename: 'Data0000.dat',
        relativePath: 'slide/Data\u00000000.dat',
        groupSize: 2,
        size: 10,
      })
    ).res;
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`metadata.relativePath: ${InputText.nul}`);
    expect((await t.app.ctx.db.select().from(uploads)).length).toBe(before);
  });

  it("refuses an .mrxs named '...mrxs' at creation with a 400 naming the file name", async () => {
    const tus = tusClient(t.app, lab.member.token);
    const groupId = crypto.randomUUID();
    const res = (await tus.create({ filename: '...mrxs', groupId, groupSize: 2, size: 4 })).res;
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('metadata.filename: must have a name before its extension');
    const group = await call('GET', `/v2/upload-groups/${groupId}`);
    expect(group.statusCode).toBe(404);
  });
});

/** A 1 MiB tmpfs to hold DATA_DIR: a real full disk. Mounting needs root; elsewhere the test is skipped. */
function smallDisk(): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const disk = process.getuid?.() === 0 ? smallDisk() : undefined;

describe.skipIf(!disk)('a full disk on tus creation', () => {
  let t: TestApp;
  let lab: LabFixture;
  beforeAll(async () => {
    const [pglite] = targets;
    t = await startApp(pglite, { DATA_DIR: disk! });
    lab = await addLabFixture(t.app);
  });
  afterAll(async () => {
    await t.close().catch(() => undefined);
    execFileSync('umount', [disk!]);
    fs.rmSync(disk!, { recursive: true, force: true });
  });

  it('is a 507 with a sentence a person can act on, no server path, and no part left behind', async () => {
    // Fill the disk to its last byte.
    const filler = fs.openSync(path.join(disk!, 'filler'), 'w');
    try {
      for (;;) fs.writeSync(filler, Buffer.alloc(64 * 1024));
    } catch {
      // ENOSPC: full
    } finally {
      fs.closeSync(filler);
    }
    const tus = tusClient(t.app, lab.member.token);
    const res = (await tus.create({ filename: 'slide.czi', size: 1000 })).res;
    expect(res.statusCode).toBe(507);
    expect(res.body.trim()).toBe(UploadOwnText.storageFull);
    expectNoInternals(res.body, disk!);
    expect(await t.app.ctx.db.select().from(uploads)).toEqual([]);
  });
});

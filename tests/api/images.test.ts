// /v2/images and /v2/files through HTTP on PGlite and PostgreSQL: list and stats by read scope,
// traceback redaction, status updates only while active (§4.5, §5), signed expiring download URLs
// with Range support, previews cached 60 s (§9).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { Denied } from '../../src/api/messages';
import { loadSigningSecret } from '../../src/server/auth/secret';
import { images } from '../../src/server/db/schema';
import { fileSigner } from '../../src/server/images/file-urls';
import { createImageRecord } from '../../src/server/uploads/image-records';
import { addOrganization, bearer, dbTargets, login, memberToken, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();
const CONTENT = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

describe.each(targets)('images on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let owner: { id: string; token: string }; // uploads and makes labels
  let manager: { id: string; token: string }; // manageOrganizationSlides: may download
  let colleague: { id: string; token: string };
  let outsider: { id: string; token: string };
  let admin: string;
  let slideId: string;
  let imageId: string;
  let otherImageId: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Lab' });
    const other = await addOrganization(t.app, { name: 'Other' });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: lab,
      policies: ['createOrganizationLabels', 'uploadOrganizationImages'],
    });
    manager = await memberToken(t.app, {
      email: 'manager@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationSlides'],
    });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other });
    admin = (await login(t.app)).access;
    slideId = (await call(owner.token, 'POST', '/scan-groups', { scanGroup: {} })).json().result.id;
    const make = (name: string, extra: Record<string, unknown> = {}) =>
      createImageRecord(t.app.ctx.db, {
        name,
        organizationId: lab,
        creatorUserId: owner.id,
        scanGroupId: slideId,
        status: 'completed',
        ...extra,
      });
    imageId = (
      await make('first.czi', {
        storageKey: 'uploads/first.czi',
        fileSize: CONTENT.length,
        info: { code: 'ok', traceback: 'Error: secret stack' },
      })
    ).id;
    otherImageId = (await make('second.czi', { fileSize: 500 })).id;
    await createImageRecord(t.app.ctx.db, {
      name: 'stray.czi',
      organizationId: other,
      creatorUserId: null,
      fileSize: 7,
    });
    const files = path.join(t.dataDir, 'files', 'uploads');
    fs.mkdirSync(files, { recursive: true });
    fs.writeFileSync(path.join(files, 'first.czi'), CONTENT);
    const tiles = path.join(t.dataDir, 'tiles', imageId);
    fs.mkdirSync(tiles, { recursive: true });
    fs.writeFileSync(path.join(tiles, 'thumbnail.jpg'), 'jpeg-bytes');
  });
  afterAll(() => t.close());

  function call(token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  }
  const fetchUrl = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: new URL(url).pathname, headers });
  const setStorage = (id: string, storageStatus: string) =>
    t.app.ctx.db.update(images).set({ storageStatus }).where(eq(images.id, id));

  describe('list, stats and read', () => {
    it('lists a slide’s images newest first, 100 per page, hiding the traceback but from super admins', async () => {
      const res = await call(colleague.token, 'GET', `/images?scanGroupId=${slideId}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.limit).toBe(100);
      expect(body.result.map((i: { name: string }) => i.name)).toEqual(['second.czi', 'first.czi']);
      expect(body.result[1].info).toEqual({ code: 'ok' });
      const asAdmin = await call(admin, 'GET', `/images/${imageId}`);
      expect(asAdmin.json().result.info.traceback).toBe('Error: secret stack');
      expect((await call(owner.token, 'GET', `/images/${imageId}`)).json().result.info).toEqual({
        code: 'ok',
      });
      expect((await call(outsider.token, 'GET', `/images?scanGroupId=${slideId}`)).json().count).toBe(0);
      expect((await call(outsider.token, 'GET', `/images/${imageId}`)).statusCode).toBe(404);
    });

    it('sums the file sizes of readable images', async () => {
      const mine = await call(colleague.token, 'GET', `/images/stats?scanGroupId=${slideId}`);
      expect(mine.json()).toEqual({ totalFileSize: CONTENT.length + 500 });
      expect((await call(outsider.token, 'GET', '/images/stats')).json()).toEqual({ totalFileSize: 7 });
      expect((await call(admin, 'GET', '/images/stats')).json()).toEqual({
        totalFileSize: CONTENT.length + 507,
      });
    });

    it('refuses bad filters and ids', async () => {
      for (const url of [
        '/images?scanGroupId=x',
        '/images?status=done',
        '/images?limit=500',
        '/images/stats?id=1',
        '/images/1',
      ]) {
        const res = await call(owner.token, 'GET', url);
        expect(res.statusCode, url).toBe(400);
      }
    });
  });

  describe('update', () => {
    it('lets the uploader write upload fields, and only platform rights the status', async () => {
      const upload = await call(owner.token, 'PATCH', `/images/${otherImageId}`, {
        image: { info: { size: 500 } },
      });
      expect(upload.statusCode).toBe(200);
      expect(upload.json().result.info).toEqual({ size: 500 });
      const status = await call(owner.token, 'PATCH', `/images/${otherImageId}`, {
        image: { status: 'rejected' },
      });
      expect(status.statusCode).toBe(403);
      expect(status.json().message).toBe(AccessText.generic);
      const trace = await call(owner.token, 'PATCH', `/images/${otherImageId}`, {
        image: { info: { traceback: 'x' } },
      });
      expect(trace.statusCode).toBe(403);
      const ok = await call(admin, 'PATCH', `/images/${otherImageId}`, {
        image: { status: 'rejected', displayStatus: 'failed' },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result).toMatchObject({ status: 'rejected', displayStatus: 'failed' });
      const [row] = await t.app.ctx.db.select().from(images).where(eq(images.id, otherImageId));
      expect(row.status).toBe('rejected');
    });

    it('refuses status and display changes of images that are not active, with the spec’s texts', async () => {
      await setStorage(otherImageId, 'archived');
      const status = await call(admin, 'PATCH', `/images/${otherImageId}`, {
        image: { status: 'completed' },
      });
      expect(status.statusCode).toBe(403);
      expect(status.json().message).toBe(Denied.updateStatusActiveImages);
      const display = await call(admin, 'PATCH', `/images/${otherImageId}`, {
        image: { displayStatus: 'completed' },
      });
      expect(display.statusCode).toBe(403);
      expect(display.json().message).toBe(Denied.updateDisplayStatusActiveImages);
      const upload = await call(owner.token, 'PATCH', `/images/${otherImageId}`, {
        image: { info: { size: 1 } },
      });
      expect(upload.json().message).toBe(Denied.uploadActiveImages);
      await setStorage(otherImageId, 'active');
    });

    it('refuses unknown fields and values', async () => {
      for (const image of [
        { status: 'done' },
        { storageStatus: 'active' },
        { name: '' },
        { info: { colour: 1 } },
      ]) {
        const res = await call(admin, 'PATCH', `/images/${otherImageId}`, { image });
        expect(res.statusCode, JSON.stringify(image)).toBe(400);
        expect(res.json().message).toMatch(/^body\.image/);
      }
    });
  });

  describe('download URLs and files', () => {
    it('signs a download URL for those who may download, and serves the file with ranges', async () => {
      const denied = await call(colleague.token, 'GET', `/images/${imageId}/download-url`);
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe(AccessText.generic);
      const res = await call(manager.token, 'GET', `/images/${imageId}/download-url`);
      expect(res.statusCode).toBe(200);
      const { url } = res.json();
      expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/v2\/files\//);
      const whole = await fetchUrl(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(CONTENT)).toBe(true);
      expect(whole.headers['content-disposition']).toBe("attachment; filename*=UTF-8''first.czi");
      const part = await fetchUrl(url, { range: 'bytes=100-199' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${CONTENT.length}`);
      expect(part.rawPayload.equals(CONTENT.subarray(100, 200))).toBe(true);
      const tail = await fetchUrl(url, { range: 'bytes=-10' });
      expect(tail.rawPayload.equals(CONTENT.subarray(-10))).toBe(true);
      const beyond = await fetchUrl(url, { range: `bytes=${CONTENT.length}-` });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${CONTENT.length}`);
    });

    it('refuses tampered and expired links, and originals of images that are no longer active', async () => {
      const { url } = (await call(manager.token, 'GET', `/images/${imageId}/download-url`)).json();
      const tampered = await fetchUrl(
        url.replace(/\.(\d+)\./, (_: string, n: string) => `.${Number(n) + 1}.`),
      );
      expect(tampered.statusCode).toBe(403);
      expect(tampered.json().message).toBe(errorText('LINK_INVALID'));
      const signer = fileSigner(await loadSigningSecret(t.app.ctx.db));
      const old = signer.sign(imageId, 'original', Date.now() - 11 * 60_000);
      const expired = await fetchUrl(`http://localhost/v2/files/${old.token}`);
      expect(expired.statusCode).toBe(403);
      expect(expired.json().message).toBe(errorText('LINK_INVALID'));

      await setStorage(imageId, 'archived');
      const refused = await call(manager.token, 'GET', `/images/${imageId}/download-url`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(Denied.downloadActiveImages);
      const late = await fetchUrl(url);
      expect(late.statusCode).toBe(403);
      expect(late.json().message).toBe(Denied.downloadActiveImages);
      await setStorage(imageId, 'active');
    });

    it('gives readers preview URLs that stay the same for a minute and are cached 60 s', async () => {
      const a = await call(colleague.token, 'GET', `/images/${imageId}/thumbnail/download-url`);
      const b = await call(colleague.token, 'GET', `/images/${imageId}/thumbnail/download-url`);
      expect(a.statusCode).toBe(200);
      // Equal unless the two calls straddle a minute boundary.
      expect([a.json().url, b.json().url]).toContain(b.json().url);
      const thumb = await fetchUrl(a.json().url);
      expect(thumb.statusCode).toBe(200);
      expect(thumb.body).toBe('jpeg-bytes');
      expect(thumb.headers['cache-control']).toBe('private, max-age=60');
      expect(thumb.headers['content-type']).toBe('image/jpeg');
      const label = await call(colleague.token, 'GET', `/images/${imageId}/labels/download-url`);
      const missing = await fetchUrl(label.json().url);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(errorText('FILE_MISSING'));
      expect((await call(outsider.token, 'GET', `/images/${imageId}/labels/download-url`)).statusCode).toBe(
        404,
      );
    });
  });

  it('mirrors images in the sync feed without the traceback', async () => {
    const res = await call(admin, 'GET', '/sync/images?limit=500');
    const first = res.json().result.find((i: { id: string }) => i.id === imageId);
    expect(first.info).toEqual({ code: 'ok' });
  });
});

// The access rule on every tile, with the per-user decision kept a few seconds (processing/tile-access.ts):
// another organization's user is refused; a share removed, an image archived or deleted, a user moved
// or deactivated, a session ended are refused at once when the change goes through this server, and
// within ACCESS_DECISION_CACHE_SECONDS (sessions: SESSION_CHECK_CACHE_SECONDS) when another server
// made it (here: the rows changed in the database directly, which is all this server can see of it).
// The tile files are written in place, as processing leaves them: the route serves what is on disk.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { ACCESS_DECISION_CACHE_SECONDS, SESSION_CHECK_CACHE_SECONDS } from '../../src/api/constants';
import { images, sessions, users } from '../../src/server/db/schema';
import { createImageRecord } from '../../src/server/uploads/image-records';
import { tilesDir } from '../../src/server/processing/files';
import {
  addMember,
  addOrganization,
  bearer,
  dbTargets,
  login,
  memberToken,
  startApp,
  type TestApp,
} from './helpers';

const targets = await dbTargets();
const FILES = [
  'layers.json',
  'rgb.dzi',
  'rgb_files/0/0_0.jpeg',
  'rgb_files/9/1_2.jpeg',
  'thumbnail.jpg',
  'label.png',
];
const PYRAMID = FILES.slice(0, 4);

describe.each(targets)('tile access on $name', (target) => {
  let t: TestApp;
  let teamA: string;
  let teamB: string;
  let other: string;
  let owner: { id: string; token: string }; // team A: makes labels, uploads
  let colleague: { id: string; token: string }; // team A, no policies: reads team A's images
  let manager: { id: string; token: string }; // the lab root: shares and archives
  let outsider: { id: string; token: string }; // another lab

  beforeAll(async () => {
    t = await startApp(target);
    const lab = await addOrganization(t.app, { name: 'Lab' });
    teamA = await addOrganization(t.app, { name: 'Team A', parentId: lab });
    teamB = await addOrganization(t.app, { name: 'Team B', parentId: lab });
    other = await addOrganization(t.app, { name: 'Other Lab' });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: teamA,
      policies: ['createOrganizationLabels'],
    });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: teamA });
    manager = await memberToken(t.app, {
      email: 'manager@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationSlides', 'manageOrganizationArchivals'],
    });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other });
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  const tile = (token: string, imageId: string, file = 'rgb_files/9/1_2.jpeg') =>
    call(token, 'GET', `/images/${imageId}/tiles/${file}`);
  /** Status of every file of the image for the token. */
  const statuses = async (token: string, imageId: string, files = FILES) =>
    Promise.all(files.map(async (f) => (await tile(token, imageId, f)).statusCode));
  const all = (code: number, files = FILES) => files.map(() => code);

  /** A slide of team A made by the owner, with one processed image: its tile files on disk. */
  async function slideWithImage() {
    const res = await call(owner.token, 'POST', '/scan-groups', { scanGroup: {} });
    expect(res.statusCode, res.body).toBe(200);
    const slideId = res.json().result.id as string;
    const image = await createImageRecord(t.app.ctx.db, {
      name: 'slide.czi',
      organizationId: teamA,
      creatorUserId: owner.id,
      scanGroupId: slideId,
    });
    for (const file of FILES) {
      const full = path.join(tilesDir(t.dataDir, image.id), file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, `bytes of ${file}`);
    }
    return { slideId, imageId: image.id };
  }

  /** Moves this process's clock past `seconds` (Date only: the server's timers keep running). */
  function after(seconds: number) {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 + 100 });
  }

  it('serves every file to a reader with its caching headers, and nothing to another lab', async () => {
    const { imageId } = await slideWithImage();
    expect(await statuses(colleague.token, imageId)).toEqual(all(200));
    const first = await tile(colleague.token, imageId);
    expect(first.body).toBe('bytes of rgb_files/9/1_2.jpeg');
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(first.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(first.headers['content-security-policy']).toContain("default-src 'self'");
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const again = await t.app.inject({
      method: 'GET',
      url: `/v2/images/${imageId}/tiles/rgb_files/9/1_2.jpeg`,
      headers: { ...bearer(colleague.token), 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // Asked after the reader's decision is kept, and again: the decision is the reader's alone.
    expect(await statuses(outsider.token, imageId)).toEqual(all(404));
    expect(await statuses(outsider.token, imageId)).toEqual(all(404));
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/images/${imageId}/tiles/layers.json` })).statusCode,
    ).toBe(401);
    const outside = await tile(colleague.token, imageId, 'rgb_files/9/../../../../etc');
    expect([400, 404]).toContain(outside.statusCode);
  });

  it('refuses a removed share at once through this server, within the bound through another', async () => {
    const { slideId, imageId } = await slideWithImage();
    const reader = await memberToken(t.app, { email: 'b1@lab.test', organizationId: teamB });
    expect(await statuses(reader.token, imageId)).toEqual(all(404));
    const share = (ids: string[]) =>
      call(manager.token, 'PATCH', `/scan-groups/${slideId}`, { scanGroup: { assigneeUserIds: ids } });
    expect((await share([owner.id, reader.id])).statusCode).toBe(200);
    expect(await statuses(reader.token, imageId)).toEqual(all(200));
    expect((await share([owner.id])).statusCode).toBe(200);
    expect(await statuses(reader.token, imageId)).toEqual(all(404));

    // Another server unshares: this one learns it from the image's row once its decision is old.
    expect((await share([owner.id, reader.id])).statusCode).toBe(200);
    expect((await tile(reader.token, imageId)).statusCode).toBe(200);
    await t.app.ctx.db.update(images).set({ inheritedAssignees: [] }).where(eq(images.id, imageId));
    after(ACCESS_DECISION_CACHE_SECONDS);
    expect(await statuses(reader.token, imageId)).toEqual(all(404));
  });

  it('refuses the pyramid of an archived image with the reason, keeps its thumbnail and label', async () => {
    const { slideId, imageId } = await slideWithImage();
    expect(await statuses(colleague.token, imageId)).toEqual(all(200));
    const archive = await call(manager.token, 'PATCH', `/scan-groups/${slideId}`, {
      scanGroup: { archiveAt: new Date().toISOString() },
    });
    expect(archive.statusCode, archive.body).toBe(200);
    expect(await statuses(colleague.token, imageId)).toEqual([...all(403, PYRAMID), 200, 200]);
    expect((await tile(colleague.token, imageId)).json().message).toBe(AccessText.viewActiveImages);
    expect(await statuses(outsider.token, imageId)).toEqual(all(404));

    // Archived by another server (or its storage job).
    const second = await slideWithImage();
    expect((await tile(colleague.token, second.imageId)).statusCode).toBe(200);
    await t.app.ctx.db.update(images).set({ storageStatus: 'archived' }).where(eq(images.id, second.imageId));
    after(ACCESS_DECISION_CACHE_SECONDS);
    expect(await statuses(colleague.token, second.imageId)).toEqual([...all(403, PYRAMID), 200, 200]);
  });

  it('refuses a deleted image within the bound', async () => {
    const { imageId } = await slideWithImage();
    expect((await tile(colleague.token, imageId)).statusCode).toBe(200);
    await t.app.ctx.db.delete(images).where(eq(images.id, imageId));
    after(ACCESS_DECISION_CACHE_SECONDS);
    expect(await statuses(colleague.token, imageId)).toEqual(all(404));
  });

  it('refuses a user moved to another organization, or deactivated, within the bound', async () => {
    const { imageId } = await slideWithImage();
    const moving = await memberToken(t.app, { email: 'moving@lab.test', organizationId: teamA });
    const leaving = await memberToken(t.app, { email: 'leaving@lab.test', organizationId: teamA });
    expect((await tile(moving.token, imageId)).statusCode).toBe(200);
    expect((await tile(leaving.token, imageId)).statusCode).toBe(200);
    await t.app.ctx.db.update(users).set({ organizationId: other }).where(eq(users.id, moving.id));
    await t.app.ctx.db.update(users).set({ status: 'inactive' }).where(eq(users.id, leaving.id));
    after(ACCESS_DECISION_CACHE_SECONDS);
    expect(await statuses(moving.token, imageId)).toEqual(all(404));
    expect(await statuses(leaving.token, imageId)).toEqual(all(401));
  });

  it('refuses a session ended here at once, and one ended elsewhere within the bound', async () => {
    const { imageId } = await slideWithImage();
    await addMember(t.app, { email: 'two@lab.test', organizationId: teamA, password: 'member-password-1' });
    const here = await login(t.app, 'two@lab.test', 'member-password-1');
    const elsewhere = await login(t.app, 'two@lab.test', 'member-password-1');
    expect((await tile(here.access, imageId)).statusCode).toBe(200);
    expect((await tile(elsewhere.access, imageId)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/logout',
      payload: { token: here.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect(await statuses(here.access, imageId)).toEqual(all(401));

    const [{ sid }] = [JSON.parse(Buffer.from(elsewhere.access.split('.')[1], 'base64url').toString())];
    await t.app.ctx.db.update(sessions).set({ endedAt: new Date() }).where(eq(sessions.id, sid));
    after(SESSION_CHECK_CACHE_SECONDS);
    expect(await statuses(elsewhere.access, imageId)).toEqual(all(401));
  });
});

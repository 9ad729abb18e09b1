// /v2/upload-groups/:id/label (§2.3 ?fixUpload / ?fixCreateUpload): the uploader applies a slide's
// label to an image whose label was not recognized; other users, unknown or unreadable slides and
// unfinished uploads are refused with the texts of src/api; on PGlite and PostgreSQL.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UploadOwnText } from '../../src/api/uploads';
import { activities, images, scanGroups } from '../../src/server/db/schema';
import {
  addLabFixture,
  bearer,
  dbTargets,
  insertImageRow,
  startApp,
  type LabFixture,
  type TestApp,
} from './helpers';
import { tusClient } from './uploads-tus';

const targets = await dbTargets();

describe.each(targets)('upload label repair on $name', (target) => {
  let t: TestApp;
  let lab: LabFixture;
  const saved = { ...process.env };
  beforeAll(async () => {
    process.env.UPLOAD_CLEANUP_MINUTES = '0';
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(async () => {
    process.env = saved;
    await t.close();
  });

  /** A finished upload whose image was processed without finding its label. */
  async function unlabelled(token = lab.member.token) {
    const groupId = crypto.randomUUID();
    await tusClient(t.app, token).upload({ filename: 'x.czi', groupId, bytes: crypto.randomBytes(1000) });
    const status = await t.app.inject({
      method: 'GET',
      url: `/v2/upload-groups/${groupId}`,
      headers: bearer(token),
    });
    const imageId = status.json().result.image.id as string;
    await t.app.ctx.db
      .update(images)
      .set({ status: 'completed', info: { code: 'label_does_not_exist' } })
      .where(eq(images.id, imageId));
    return { groupId, imageId };
  }
  const apply = (groupId: string, body: Record<string, unknown>, token = lab.member.token) =>
    t.app.inject({
      method: 'POST',
      url: `/v2/upload-groups/${groupId}/label`,
      headers: bearer(token),
      payload: body,
    });

  it('applies a slide found by simpleId: the image joins the slide and the upload is done', async () => {
    const { groupId, imageId } = await unlabelled();
    const slide = await insertImageRow(t.app, { organizationId: lab.orgs.teamA, simpleId: 'ABCD2345' });
    const res = await apply(groupId, { simpleId: 'abcd-2345' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.image).toMatchObject({
      id: imageId,
      scanGroupId: slide.scanGroupId,
      code: 'label_applied',
      desc: 'ABCD2345',
    });
    const [row] = await t.app.ctx.db.select().from(images).where(eq(images.id, imageId));
    expect(row.scanGroupId).toBe(slide.scanGroupId);
    const [group] = await t.app.ctx.db.select().from(scanGroups).where(eq(scanGroups.id, slide.scanGroupId!));
    expect(group.lastUploadDate).not.toBeNull();
    const feed = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, imageId));
    expect(feed.map((a) => a.actionType)).toContain('update');
  });

  it('applies a slide given by id (the Create Slide Label ID flow)', async () => {
    const { groupId } = await unlabelled();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/scan-groups',
      headers: bearer(lab.member.token),
      payload: { scanGroup: { notes: 'made from the uploader' } },
    });
    expect(created.statusCode).toBe(200);
    const res = await apply(groupId, { scanGroupId: created.json().result.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.image.scanGroupId).toBe(created.json().result.id);
  });

  it('refuses unknown and unreadable slides with the same text, and changes nothing', async () => {
    const { groupId, imageId } = await unlabelled();
    const unknown = await apply(groupId, { simpleId: 'ZZZZZZZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(UploadOwnText.labelNotFound);
    const elsewhere = await insertImageRow(t.app, { organizationId: lab.orgs.other, simpleId: 'OTHR2345' });
    const hidden = await apply(groupId, { scanGroupId: elsewhere.scanGroupId });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe(UploadOwnText.labelNotFound);
    const [row] = await t.app.ctx.db.select().from(images).where(eq(images.id, imageId));
    expect(row.scanGroupId).toBeNull();
  });

  it('is for the uploader only, on a finished upload, with one of simpleId or scanGroupId', async () => {
    const { groupId } = await unlabelled();
    const slide = await insertImageRow(t.app, { organizationId: lab.orgs.teamA, simpleId: 'WXYZ2345' });
    const other = await apply(groupId, { simpleId: 'WXYZ2345' }, lab.qc.token);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Upload not found');
    const both = await apply(groupId, { simpleId: 'WXYZ2345', scanGroupId: slide.scanGroupId });
    expect(both.statusCode).toBe(400);
    const long = await apply(groupId, { simpleId: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);

    const tus = tusClient(t.app, lab.member.token);
    const pending = crypto.randomUUID();
    await tus.create({ filename: 'y.czi', size: 10, groupId: pending });
    const early = await apply(pending, { simpleId: 'WXYZ2345' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(UploadOwnText.notComplete);
  });
});

// Inherited assignees (§3, §6.2) through HTTP on PGlite and PostgreSQL: a user assigned only to a
// study reads its slides and their images, and loses them when removed, when the slide leaves the
// study, or when the study is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { images, scanGroups } from '../../src/server/db/schema';
import { createImageRecord } from '../../src/server/uploads/image-records';
import { addOrganization, bearer, dbTargets, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('inherited assignees on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let teamB: string;
  let owner: { id: string; token: string }; // in the root Lab
  let collab: { id: string; token: string }; // in Team B, below Lab: cannot read Lab's slides by itself
  let slideId: string;
  let imageId: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Lab' });
    teamB = await addOrganization(t.app, { name: 'Team B', parentId: lab });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationStudies', 'createOrganizationLabels'],
    });
    collab = await memberToken(t.app, { email: 'collab@b.lab.test', organizationId: teamB });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/scan-groups',
      headers: bearer(owner.token),
      payload: { scanGroup: {} },
    });
    slideId = created.json().result.id;
    imageId = (
      await createImageRecord(t.app.ctx.db, {
        name: 'liver.czi',
        organizationId: lab,
        creatorUserId: owner.id,
        scanGroupId: slideId,
        status: 'completed',
      })
    ).id;
  });
  afterAll(() => t.close());

  const get = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/v2${url}`, headers: bearer(token) });
  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(owner.token), payload: payload as object });
  /** What the collaborator can see of the slide and its image, by every read path. */
  const sees = async () => {
    const slides = (await get(collab.token, `/scan-groups?id=${slideId}`)).json().count;
    const slide = (await get(collab.token, `/scan-groups/${slideId}`)).statusCode;
    const imgs = (await get(collab.token, `/images?scanGroupId=${slideId}`)).json().count;
    const image = (await get(collab.token, `/images/${imageId}`)).statusCode;
    const synced = (await get(collab.token, '/sync/scan-groups/ids')).json().ids.includes(slideId);
    return { slides, slide, imgs, image, synced };
  };
  const none = { slides: 0, slide: 404, imgs: 0, image: 404, synced: false };
  const all = { slides: 1, slide: 200, imgs: 1, image: 200, synced: true };

  it('starts with nothing visible to the collaborator', async () => {
    expect(await sees()).toEqual(none);
  });

  it('shows the slide and its images once the study is shared, and hides them once unshared', async () => {
    const study = (
      await send('POST', '/studies', { study: { name: 'Shared', scanGroupIds: [slideId] } })
    ).json().result;
    expect(await sees()).toEqual(none);
    const shared = await send('PATCH', `/studies/${study.id}`, { add: { assigneeUserIds: [collab.id] } });
    expect(shared.statusCode).toBe(200);
    expect(await sees()).toEqual(all);

    const [slide] = await t.app.ctx.db.select().from(scanGroups).where(eq(scanGroups.id, slideId));
    expect(slide.inheritedAssignees).toContainEqual({
      assigneeId: collab.id,
      assigneeType: 'User',
      sourceId: study.id,
      sourceType: 'Study',
      count: 1,
    });
    const [image] = await t.app.ctx.db.select().from(images).where(eq(images.id, imageId));
    // The owner reaches the image twice through the slide: directly, and through the study.
    expect(image.inheritedAssignees).toContainEqual({
      assigneeId: owner.id,
      assigneeType: 'User',
      sourceId: slideId,
      sourceType: 'ScanGroup',
      count: 2,
    });

    await send('PATCH', `/studies/${study.id}`, { remove: { assigneeUserIds: [collab.id] } });
    expect(await sees()).toEqual(none);
  });

  it('follows organizations, slides leaving the study, and the study being deleted', async () => {
    const study = (
      await send('POST', '/studies', {
        study: { name: 'Team share', scanGroupIds: [slideId], assigneeOrgIds: [teamB] },
      })
    ).json().result;
    expect(await sees()).toEqual(all);
    await send('PATCH', `/studies/${study.id}`, { remove: { scanGroupIds: [slideId] } });
    expect(await sees()).toEqual(none);
    await send('PATCH', `/studies/${study.id}`, { study: { scanGroupIds: [slideId] } });
    expect(await sees()).toEqual(all);
    expect((await send('DELETE', `/studies/${study.id}`)).statusCode).toBe(200);
    expect(await sees()).toEqual(none);
  });

  it('gives a new image of a shared slide the slide’s assignees at once', async () => {
    const study = (
      await send('POST', '/studies', {
        study: { name: 'Later image', scanGroupIds: [slideId], assigneeUserIds: [collab.id] },
      })
    ).json().result;
    const later = await createImageRecord(t.app.ctx.db, {
      name: 'kidney.czi',
      organizationId: lab,
      creatorUserId: owner.id,
      scanGroupId: slideId,
    });
    expect((await get(collab.token, `/images/${later.id}`)).statusCode).toBe(200);
    await send('DELETE', `/studies/${study.id}`);
    expect((await get(collab.token, `/images/${later.id}`)).statusCode).toBe(404);
  });
});

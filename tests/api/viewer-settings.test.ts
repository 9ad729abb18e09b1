// /v2/user-viewer-settings through HTTP on PGlite and PostgreSQL: one's own settings per study,
// merged on repeat and on update; nobody reads or changes another's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userViewerSettings } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('user viewer settings on $name', (target) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let colleague: { id: string; token: string };
  let outsider: { id: string; token: string };
  let studyId: string;
  let settingsId: string;

  beforeAll(async () => {
    t = await startApp(target);
    const lab = await addOrganization(t.app, { name: 'Lab' });
    const other = await addOrganization(t.app, { name: 'Other' });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationStudies'],
    });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other });
    studyId = (await call(owner.token, 'POST', '/studies', { study: { name: 'Viewed' } })).json().result.id;
  });
  afterAll(() => t.close());

  function call(token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  }
  const count = async () => (await t.app.ctx.db.select().from(userViewerSettings)).length;

  it('saves settings per study, merging a repeat into the same row', async () => {
    const first = await call(owner.token, 'POST', '/user-viewer-settings', {
      studyId,
      viewerSettings: { gamma: 1.2 },
    });
    expect(first.statusCode).toBe(200);
    settingsId = first.json().result.id;
    expect(first.json().result).toMatchObject({
      studyId,
      creatorUserId: owner.id,
      viewerSettings: { gamma: 1.2 },
    });
    const again = await call(owner.token, 'POST', '/user-viewer-settings', {
      studyId,
      viewerSettings: { exposure: 3 },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().result).toMatchObject({
      id: settingsId,
      viewerSettings: { gamma: 1.2, exposure: 3 },
    });
    const mineToo = await call(colleague.token, 'POST', '/user-viewer-settings', {
      studyId,
      viewerSettings: { gamma: 2 },
    });
    expect(mineToo.statusCode).toBe(200);
    expect(await count()).toBe(2);
  });

  it('lists and updates only one’s own', async () => {
    const own = (await call(owner.token, 'GET', `/user-viewer-settings?studyId=${studyId}`)).json();
    expect(own.result.map((s: { id: string }) => s.id)).toEqual([settingsId]);
    const peek = await call(colleague.token, 'GET', `/user-viewer-settings?creatorUserId=${owner.id}`);
    expect(peek.json().count).toBe(0);
    const patched = await call(owner.token, 'PATCH', `/user-viewer-settings/${settingsId}`, {
      viewerSettings: { channels: [{ name: 'DAPI', visible: false }] },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().result.viewerSettings).toEqual({
      gamma: 1.2,
      exposure: 3,
      channels: [{ name: 'DAPI', visible: false }],
    });
    const theirs = await call(colleague.token, 'PATCH', `/user-viewer-settings/${settingsId}`, {
      viewerSettings: { gamma: 9 },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('Viewer settings not found');
  });

  it('refuses unreadable studies, others’ names and bad bodies, writing nothing', async () => {
    const before = await count();
    const hidden = await call(outsider.token, 'POST', '/user-viewer-settings', {
      studyId,
      viewerSettings: {},
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('Study not found');
    const forOther = await call(owner.token, 'POST', '/user-viewer-settings', {
      creatorUserId: colleague.id,
      viewerSettings: {},
    });
    expect(forOther.statusCode).toBe(403);
    for (const body of [
      { studyId: 'abc', viewerSettings: {} },
      { studyId },
      { studyId, viewerSettings: { big: 'x'.repeat(20_001) } },
      { studyId, viewerSettings: {}, extra: 1 },
    ]) {
      const res = await call(owner.token, 'POST', '/user-viewer-settings', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^body/);
    }
    expect(
      (await call(owner.token, 'PATCH', '/user-viewer-settings/xyz', { viewerSettings: {} })).statusCode,
    ).toBe(400);
    expect(await count()).toBe(before);
  });
});

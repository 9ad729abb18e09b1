// /v2/activities through HTTP on PGlite and PostgreSQL: the own and organization feeds by read scope,
// the collaborator feed (others' actions on rows the caller can read), filters and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganization, bearer, dbTargets, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

type Feed = {
  result: Array<{ reference: string; actionType: string; creatorUserId: string; referenceId: string }>;
  count: number;
};

describe.each(targets)('activities on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let owner: { id: string; token: string }; // Lab (root)
  let colleague: { id: string; token: string }; // Lab
  let collab: { id: string; token: string }; // Team B under Lab
  let outsider: { id: string; token: string }; // another root
  let studyId: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Lab' });
    const teamB = await addOrganization(t.app, { name: 'Team B', parentId: lab });
    const other = await addOrganization(t.app, { name: 'Other' });
    const policies = ['manageOrganizationStudies'];
    owner = await memberToken(t.app, { email: 'owner@lab.test', organizationId: lab, policies });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
    collab = await memberToken(t.app, { email: 'collab@b.test', organizationId: teamB, policies });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other, policies });
    studyId = (
      await call(owner.token, 'POST', '/studies', { study: { name: 'Shared', assigneeUserIds: [collab.id] } })
    ).json().result.id;
    await call(owner.token, 'PATCH', `/studies/${studyId}`, { study: { name: 'Shared and renamed' } });
    await call(collab.token, 'PATCH', `/studies/${studyId}`, { add: { tags: ['seen'] } });
    await call(outsider.token, 'POST', '/studies', { study: { name: 'Elsewhere' } });
  });
  afterAll(() => t.close());

  function call(token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  }
  const feed = async (token: string, qs = ''): Promise<Feed> => {
    const res = await call(token, 'GET', `/activities?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('shows the organization’s activity to its members, newest first, and not to others', async () => {
    const mine = await feed(colleague.token);
    expect(mine.result.map((a) => a.actionType)).toEqual(['update', 'update', 'create']);
    expect(mine.result.every((a) => a.referenceId === studyId)).toBe(true);
    const theirs = await feed(outsider.token);
    expect(theirs.result.map((a) => a.actionType)).toEqual(['create']);
    expect((await feed(outsider.token, `organizationId=${lab}`)).count).toBe(0);
  });

  it('shows collaborators what others did to rows they can read', async () => {
    const seen = await feed(collab.token, 'collaborator=true');
    expect(seen.result.map((a) => [a.creatorUserId, a.actionType])).toEqual([
      [owner.id, 'update'],
      [owner.id, 'create'],
    ]);
    const back = await feed(owner.token, 'collaborator=true');
    expect(back.result.map((a) => a.creatorUserId)).toEqual([collab.id]);
    expect((await feed(outsider.token, 'collaborator=true')).count).toBe(0);
  });

  it('filters by creator, kind, action and date, and pages', async () => {
    expect((await feed(colleague.token, `creatorUserId=${collab.id}`)).count).toBe(1);
    expect((await feed(colleague.token, 'reference=Study&actionType=create')).count).toBe(1);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await feed(colleague.token, `dateStart=${tomorrow}`)).count).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await feed(colleague.token, `dateEnd=${today}`)).count).toBe(3);
    const page = await feed(colleague.token, 'limit=1&page=3&orderDirection=asc');
    expect(page.result.map((a) => a.actionType)).toEqual(['update']);
  });

  it('refuses bad parameters', async () => {
    for (const qs of [
      'collaborator=maybe',
      'orderBy=name',
      'creatorUserId=me',
      'dateStart=today',
      'limit=1000',
    ]) {
      const res = await call(owner.token, 'GET', `/activities?${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().message).toMatch(/^querystring\./);
    }
    expect((await t.app.inject({ method: 'GET', url: '/v2/activities' })).statusCode).toBe(401);
  });
});

// /v2/studies through HTTP on PGlite and PostgreSQL: create (§4.5 defaults, §5 limits), list filters,
// tags, update with add/remove merging, slide and assignee checks, delete; allow and deny per rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Denied } from '../../src/api/messages';
import { AccessText } from '../../src/api/access-messages';
import { activities, scanGroups, studies, tombstones } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, login, memberToken, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('studies on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let other: string;
  let owner: { id: string; token: string }; // manages studies and makes labels in Lab
  let colleague: { id: string; token: string }; // Lab member without policies
  let outsider: { id: string; token: string }; // manages studies in Other Lab
  let admin: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Lab' });
    other = await addOrganization(t.app, { name: 'Other Lab' });
    const policies = ['manageOrganizationStudies', 'createOrganizationLabels'];
    owner = await memberToken(t.app, { email: 'owner@lab.test', organizationId: lab, policies });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other, policies });
    admin = (await login(t.app)).access;
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  const create = (token: string, study: Record<string, unknown>) =>
    call(token, 'POST', '/studies', { study });
  const slide = async (token: string, scanGroup: Record<string, unknown> = {}) => {
    const res = await call(token, 'POST', '/scan-groups', { scanGroup });
    expect(res.statusCode).toBe(200);
    return res.json().result as { id: string; simpleId: string };
  };
  const count = async () => (await t.app.ctx.db.select().from(studies)).length;

  describe('create', () => {
    it('makes the caller creator and first assignee, and their organization the assignee organization', async () => {
      const res = await create(owner.token, { name: '  Liver panel  ', tags: [' tox '] });
      expect(res.statusCode).toBe(200);
      const study = res.json().result;
      expect(study).toMatchObject({
        name: 'Liver panel',
        status: 'created',
        creatorUserId: owner.id,
        organizationId: lab,
        assigneeUserIds: [owner.id],
        assigneeOrgIds: [lab],
        tags: ['tox'],
        scanGroupIds: [],
        inheritedAssignees: [],
      });
      const [stored] = await t.app.ctx.db.select().from(studies).where(eq(studies.id, study.id));
      expect(stored.name).toBe('Liver panel');
      const feed = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, study.id));
      expect(feed.map((a) => [a.actionType, a.reference, a.creatorUserId])).toEqual([
        ['create', 'Study', owner.id],
      ]);
    });

    it('refuses bad names, tags and fields with the field named, writing nothing', async () => {
      const before = await count();
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ name: '' }, 400, 'body.study.name: Study name is required'],
        [{ name: '   ' }, 400, 'body.study.name: Study name is required'],
        [{}, 400, 'body.study.name: Study name is required'],
        [{ name: 'x'.repeat(101) }, 400, 'body.study.name: Study name must be at most 100 characters'],
        [
          { name: 'a', tags: ['x'.repeat(17)] },
          400,
          'body.study.tags.0: A tag must be at most 16 characters',
        ],
        [{ name: 'a', tags: ['  '] }, 400, 'body.study.tags.0: A tag cannot be empty'],
        [
          { name: 'a', tags: Array.from({ length: 31 }, (_, i) => `t${i}`) },
          400,
          'body.study.tags: A study can have at most 30 tags',
        ],
        [{ name: 'a', tags: ['Kidney', 'kidney'] }, 400, errorText('TAG_EXISTS')],
        [{ name: 'a', scanGroupIds: ['nope'] }, 400, 'body.study.scanGroupIds.0: must be a valid id'],
        [{ name: 'a', status: 'done' }, 400, 'body.study: Unrecognized key: "status"'],
      ];
      for (const [study, status, message] of cases) {
        const res = await create(owner.token, study);
        expect(res.statusCode, JSON.stringify(study)).toBe(status);
        expect(res.json().message).toBe(message);
      }
      expect(await count()).toBe(before);
    });

    it('allows 16-character tags and 100-character names (the limits themselves)', async () => {
      const res = await create(owner.token, { name: 'n'.repeat(100), tags: ['x'.repeat(16)] });
      expect(res.statusCode).toBe(200);
    });

    it('refuses creating for someone else, and callers without the study policy', async () => {
      const before = await count();
      const forOther = await create(owner.token, { name: 'a', creatorUserId: colleague.id });
      expect(forOther.statusCode).toBe(403);
      expect(forOther.json().message).toBe(Denied.studiesForYourself);
      const noPolicy = await create(colleague.token, { name: 'a' });
      expect(noPolicy.statusCode).toBe(403);
      expect(noPolicy.json().message).toBe(Denied.noStudyPermission);
      const viewer = await create(owner.token, { name: 'a', viewerOptions: { gamma: 2 } });
      expect(viewer.statusCode).toBe(403);
      expect(await count()).toBe(before);
      const anon = await t.app.inject({
        method: 'POST',
        url: '/v2/studies',
        payload: { study: { name: 'a' } },
      });
      expect(anon.statusCode).toBe(401);
    });

    it('takes readable slides and assignees only', async () => {
      const mine = await slide(owner.token);
      const theirs = await slide(outsider.token);
      const ok = await create(owner.token, { name: 'with slide', scanGroupIds: [mine.id] });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.scanGroupIds).toEqual([mine.id]);
      const hidden = await create(owner.token, { name: 'x', scanGroupIds: [theirs.id] });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json().message).toBe('study.scanGroupIds: No such slide is available to you');
      const twice = await create(owner.token, { name: 'x', scanGroupIds: [mine.id, mine.id] });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().message).toBe(errorText('SCAN_GROUP_IN_STUDY'));
      const stranger = await create(owner.token, { name: 'x', assigneeUserIds: [outsider.id] });
      expect(stranger.statusCode).toBe(400);
      expect(stranger.json().message).toBe('study.assigneeUserIds: No such user is available to you');
      const shared = await create(owner.token, { name: 'x', assigneeUserIds: [colleague.id] });
      expect(shared.json().result.assigneeUserIds).toEqual([owner.id, colleague.id]);
    });
  });

  describe('read and list', () => {
    let a: { id: string; name: string };
    let liverSlide: { id: string; simpleId: string };
    beforeAll(async () => {
      const organs = (await import('../../src/server/db/schema')).organs;
      const organId = crypto.randomUUID();
      await t.app.ctx.db.insert(organs).values({ id: organId, name: 'Liver', animal: 'Mouse' });
      liverSlide = await slide(owner.token, { organId });
      a = (
        await create(owner.token, { name: 'Alpha search', tags: ['alpha'], scanGroupIds: [liverSlide.id] })
      ).json().result;
      await create(outsider.token, { name: 'Alpha elsewhere', tags: ['alpha', 'secret'] });
    });

    it('reads a study by id; others get 404, a malformed id 400', async () => {
      const ok = await call(colleague.token, 'GET', `/studies/${a.id}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.name).toBe('Alpha search');
      const hidden = await call(outsider.token, 'GET', `/studies/${a.id}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Study not found');
      const bad = await call(owner.token, 'GET', '/studies/123');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('params.id: must be a valid id');
    });

    it('lists only readable studies, with the §7 filters', async () => {
      const list = async (token: string, qs: string) => {
        const res = await call(token, 'GET', `/studies?${qs}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as { result: Array<{ id: string; name: string }>; count: number; limit: number };
      };
      const byName = await list(owner.token, 'name=alpha');
      expect(byName.result.map((s) => s.name)).toEqual(['Alpha search']);
      expect(byName.limit).toBe(25);
      expect((await list(outsider.token, 'name=alpha')).result.map((s) => s.name)).toEqual([
        'Alpha elsewhere',
      ]);
      expect((await list(admin, 'name=alpha')).count).toBe(2);
      expect((await list(owner.token, 'tag=alpha&tag=zzz')).result.map((s) => s.id)).toEqual([a.id]);
      expect(
        (await list(owner.token, `slideId=${liverSlide.simpleId.toLowerCase()}`)).result.map((s) => s.id),
      ).toEqual([a.id]);
      expect((await list(owner.token, `slideId=${liverSlide.id}`)).count).toBe(1);
      expect((await list(owner.token, 'animalName=mouse')).result.map((s) => s.id)).toEqual([a.id]);
      expect((await list(owner.token, `organizationId=${other}`)).count).toBe(0);
      expect((await list(owner.token, `creatorUserId=${owner.id}&name=alpha`)).count).toBe(1);
      const future = new Date(Date.now() + 86_400_000).toISOString();
      expect((await list(owner.token, `createdAtStart=${encodeURIComponent(future)}`)).count).toBe(0);
      const page = await list(owner.token, 'limit=1&page=2&orderBy=name&orderDirection=asc');
      expect(page.result).toHaveLength(1);
      expect(page.count).toBeGreaterThan(2);
    });

    it('matches a name filter as part of the name in any case, wildcards and all', async () => {
      const made = [];
      for (const name of ['Ärzte 50% Ki_67', 'ärzte 5 Ki-67', 'Plain'])
        made.push((await create(owner.token, { name })).json().result.id as string);
      const names = async (filter: string) => {
        const res = await call(owner.token, 'GET', `/studies?name=${encodeURIComponent(filter)}&limit=100`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json() as { result: Array<{ name: string }> }).result.map((s) => s.name).sort();
      };
      expect(await names('ÄRZTE')).toEqual(['Ärzte 50% Ki_67', 'ärzte 5 Ki-67']);
      expect(await names('50%')).toEqual(['Ärzte 50% Ki_67']);
      expect(await names('ki_6')).toEqual(['Ärzte 50% Ki_67']);
      expect(await names('%')).toEqual(['Ärzte 50% Ki_67']);
      expect(await names('ki-67')).toEqual(['ärzte 5 Ki-67']);
      expect(await names('ÄRZTE 5')).toEqual(['Ärzte 50% Ki_67', 'ärzte 5 Ki-67']);
      for (const id of made) await call(owner.token, 'DELETE', `/studies/${id}`);
    });

    it('refuses bad list parameters', async () => {
      for (const [qs, message] of [
        [
          'orderBy=colour',
          'querystring.orderBy: Invalid option: expected one of "createdAt"|"updatedAt"|"name"',
        ],
        ['limit=101', 'querystring.limit: limit is at most 100'],
        ['createdAtStart=yesterday', /^querystring\.createdAtStart: /],
        ['organizationId=xyz', 'querystring.organizationId.0: must be a valid id'],
      ] as const) {
        const res = await call(owner.token, 'GET', `/studies?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json().message).toMatch(message);
      }
    });

    it('answers the readable tags', async () => {
      const res = await call(owner.token, 'GET', '/studies/tags');
      expect(res.statusCode).toBe(200);
      expect(res.json().tags).toContain('alpha');
      expect(res.json().tags).not.toContain('secret');
      const search = await call(outsider.token, 'GET', '/studies/tags?search=SEC');
      expect(search.json()).toEqual({ tags: ['secret'] });
    });
  });

  describe('update', () => {
    let id: string;
    beforeAll(async () => {
      id = (await create(owner.token, { name: 'Editable', tags: ['one'] })).json().result.id;
    });
    const patch = (token: string, body: unknown) => call(token, 'PATCH', `/studies/${id}`, body);

    it('renames for assignees with the study policy; other assignees may only tag', async () => {
      const renamed = await patch(owner.token, { study: { name: 'Renamed' } });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().result.name).toBe('Renamed');
      const denied = await patch(colleague.token, { study: { name: 'Mine now' } });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe(AccessText.generic);
      const tagged = await patch(colleague.token, { add: { tags: ['two'] } });
      expect(tagged.statusCode).toBe(200);
      expect(tagged.json().result.tags).toEqual(['one', 'two']);
      const hidden = await patch(outsider.token, { add: { tags: ['x'] } });
      expect(hidden.statusCode).toBe(404);
      const [stored] = await t.app.ctx.db.select().from(studies).where(eq(studies.id, id));
      expect(stored.name).toBe('Renamed');
    });

    it('takes the whole study sent back: only fields that differ count, fixed ones are refused', async () => {
      const current = (await call(colleague.token, 'GET', `/studies/${id}`)).json().result;
      const { id: _id, ...echo } = current;
      const tagged = await patch(colleague.token, { study: { ...echo, tags: [...current.tags, 'echoed'] } });
      expect(tagged.statusCode, tagged.body).toBe(200);
      expect(tagged.json().result.tags).toContain('echoed');
      const fixed = await patch(owner.token, { study: { ...echo, organizationId: other } });
      expect(fixed.statusCode).toBe(400);
      expect(fixed.json().message).toBe('body.study.organizationId: cannot be changed');
      await patch(owner.token, { remove: { tags: ['echoed'] } });
    });

    it('merges add and remove operations instead of overwriting', async () => {
      await patch(owner.token, { add: { tags: ['three'] } });
      await patch(colleague.token, { add: { tags: ['four'] }, remove: { tags: ['one'] } });
      const [stored] = await t.app.ctx.db.select().from(studies).where(eq(studies.id, id));
      expect(stored.tags).toEqual(['two', 'three', 'four']);
    });

    it("answers 'This tag already exists' and the tag limit", async () => {
      const dup = await patch(owner.token, { add: { tags: ['TWO'] } });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe(errorText('TAG_EXISTS'));
      const many = await patch(owner.token, { add: { tags: Array.from({ length: 28 }, (_, i) => `n${i}`) } });
      expect(many.statusCode).toBe(400);
      expect(many.json().message).toBe('A study can have at most 30 tags');
      const empty = await patch(owner.token, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('body: Send study, add or remove');
    });

    it("adds slides once: 'The study already has this scan group.'", async () => {
      const s = await slide(owner.token);
      const added = await patch(owner.token, { add: { scanGroupIds: [s.id] } });
      expect(added.statusCode).toBe(200);
      expect(added.json().result.scanGroupIds).toEqual([s.id]);
      const again = await patch(owner.token, { add: { scanGroupIds: [s.id] } });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(errorText('SCAN_GROUP_IN_STUDY'));
      const noRights = await patch(colleague.token, {
        add: { scanGroupIds: [(await slide(owner.token)).id] },
      });
      expect(noRights.statusCode).toBe(403);
      // An archived slide cannot join a study.
      const archived = await slide(owner.token);
      await t.app.ctx.db
        .update(scanGroups)
        .set({ storageStatus: 'archived', status: 'archived' })
        .where(eq(scanGroups.id, archived.id));
      const refused = await patch(owner.token, { add: { scanGroupIds: [archived.id] } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Archived slides cannot be added to a study');
    });

    it('records an activity per change', async () => {
      const feed = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, id));
      expect(feed.filter((a) => a.actionType === 'update').length).toBeGreaterThanOrEqual(4);
    });
  });

  describe('delete', () => {
    it('deletes for the study policy in the organization only, leaving a tombstone', async () => {
      const id = (await create(owner.token, { name: 'Doomed' })).json().result.id;
      const denied = await call(colleague.token, 'DELETE', `/studies/${id}`);
      expect(denied.statusCode).toBe(403);
      const hidden = await call(outsider.token, 'DELETE', `/studies/${id}`);
      expect(hidden.statusCode).toBe(404);
      const ok = await call(owner.token, 'DELETE', `/studies/${id}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ result: { id } });
      expect(await t.app.ctx.db.select().from(studies).where(eq(studies.id, id))).toHaveLength(0);
      const stones = await t.app.ctx.db.select().from(tombstones).where(eq(tombstones.id, id));
      expect(stones.map((s) => s.kind)).toEqual(['studies']);
      expect((await call(owner.token, 'GET', `/studies/${id}`)).statusCode).toBe(404);
    });
  });
});

// /v2/scan-groups through HTTP on PGlite and PostgreSQL: create with simpleId (§4.1 defaults), list
// filters, archive/reactivate with the storage job's steps (§4.2), sharing, delete; allow and deny.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { Denied } from '../../src/api/messages';
import { SIMPLE_ID_ALPHABET, ScanGroupText } from '../../src/api/scan-groups';
import {
  activities,
  images,
  organizations,
  organs,
  scanGroups,
  studies,
  tombstones,
} from '../../src/server/db/schema';
import { createImageRecord } from '../../src/server/uploads/image-records';
import { advanceStorage, failStorage } from '../../src/server/scan-groups/storage';
import { addOrganization, bearer, dbTargets, login, memberToken, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('scan groups on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let other: string;
  let organId: string;
  let owner: { id: string; token: string }; // makes labels and manages studies
  let colleague: { id: string; token: string }; // same lab, no policies
  let manager: { id: string; token: string }; // manageOrganizationSlides + manageOrganizationArchivals
  let outsider: { id: string; token: string };
  let admin: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Lab' });
    other = await addOrganization(t.app, { name: 'Other Lab' });
    const labels = ['createOrganizationLabels', 'manageOrganizationStudies'];
    owner = await memberToken(t.app, { email: 'owner@lab.test', organizationId: lab, policies: labels });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
    manager = await memberToken(t.app, {
      email: 'manager@lab.test',
      organizationId: lab,
      policies: ['manageOrganizationSlides', 'manageOrganizationArchivals'],
    });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other, policies: labels });
    admin = (await login(t.app)).access;
    organId = crypto.randomUUID();
    await t.app.ctx.db.insert(organs).values({ id: organId, name: 'Kidney', animal: 'Rat' });
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  const create = (token: string, scanGroup: Record<string, unknown> = {}) =>
    call(token, 'POST', '/scan-groups', { scanGroup });
  const make = async (scanGroup: Record<string, unknown> = {}, token = owner.token) => {
    const res = await create(token, scanGroup);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { id: string; simpleId: string };
  };
  const stored = async (id: string) =>
    (await t.app.ctx.db.select().from(scanGroups).where(eq(scanGroups.id, id)))[0];
  const count = async () => (await t.app.ctx.db.select().from(scanGroups)).length;

  describe('create', () => {
    it('answers the new slide with a short unique simpleId, created and active', async () => {
      const res = await create(owner.token, { organId, notes: 'left lobe', name: 'K-1' });
      expect(res.statusCode).toBe(200);
      const sg = res.json().result;
      expect(sg.simpleId).toHaveLength(8);
      expect([...sg.simpleId].every((c: string) => SIMPLE_ID_ALPHABET.includes(c))).toBe(true);
      expect(sg).toMatchObject({
        status: 'created',
        storageStatus: 'active',
        creatorUserId: owner.id,
        organizationId: lab,
        organId,
        animal: 'Rat',
        assigneeUserIds: [owner.id],
        assigneeOrgIds: [lab],
        archiveAt: null,
      });
      expect(sg.storageHistory.map((h: { storageStatus: string }) => h.storageStatus)).toEqual(['active']);
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) ids.add((await make()).simpleId);
      expect(ids.size).toBe(20);
      const feed = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, sg.id));
      expect(feed.map((a) => a.actionType)).toEqual(['create']);
    });

    it('refuses without the label policy, for others, and bad input — writing nothing', async () => {
      const before = await count();
      const cases: Array<[string, Record<string, unknown>, number, string]> = [
        [colleague.token, {}, 403, Denied.noLabelPermission],
        [owner.token, { creatorUserId: colleague.id }, 403, Denied.scanGroupsForYourself],
        [owner.token, { organizationId: other }, 403, Denied.noLabelPermission],
        [owner.token, { organId: crypto.randomUUID() }, 400, 'scanGroup.organId: No such organ'],
        [
          owner.token,
          { organId, animal: 'Dog' },
          400,
          'scanGroup.animal: The organ belongs to another animal',
        ],
        [owner.token, { organId: 'kidney' }, 400, 'body.scanGroup.organId: must be a valid id'],
        [
          owner.token,
          { name: 'x'.repeat(101) },
          400,
          'body.scanGroup.name: Too big: expected string to have <=100 characters',
        ],
        [owner.token, { simpleId: 'ABCDEFGH' }, 400, 'body.scanGroup: Unrecognized key: "simpleId"'],
        [
          owner.token,
          { archiveAt: '2001-01-01T00:00:00Z' },
          400,
          'scanGroup.archiveAt: must be a later date',
        ],
        [owner.token, { tags: ['a', 'A'] }, 400, 'This tag already exists'],
      ];
      for (const [token, body, status, message] of cases) {
        const res = await create(token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().message).toBe(message);
      }
      expect(await count()).toBe(before);
    });

    it("schedules the archive by the organization's default active period", async () => {
      await t.app.ctx.db
        .update(organizations)
        .set({ scanGroupSettings: { defaultActiveExpiryDays: 30 } })
        .where(eq(organizations.id, other));
      const sg = await make({}, outsider.token);
      const days = (Date.parse((await stored(sg.id)).archiveAt!.toISOString()) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    });
  });

  describe('read and list', () => {
    let a: { id: string; simpleId: string };
    beforeAll(async () => {
      a = await make({ organId, tags: ['needle'] });
    });

    it('reads by id for the organization, 404 for others, 400 for malformed ids', async () => {
      expect((await call(colleague.token, 'GET', `/scan-groups/${a.id}`)).json().result.simpleId).toBe(
        a.simpleId,
      );
      const hidden = await call(outsider.token, 'GET', `/scan-groups/${a.id}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Slide not found');
      expect((await call(owner.token, 'GET', '/scan-groups/abc')).statusCode).toBe(400);
    });

    it('lists with the §7 filters, 10 per page by default', async () => {
      const list = async (token: string, qs: string) => {
        const res = await call(token, 'GET', `/scan-groups?${qs}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as {
          result: Array<{ id: string; simpleId: string }>;
          count: number;
          limit: number;
        };
      };
      const all = await list(owner.token, '');
      expect(all.limit).toBe(10);
      expect(all.result).toHaveLength(10);
      expect(all.count).toBeGreaterThan(20);
      // Typed by hand: lower case, with a separator, O for 0 and I/L for 1 still find it.
      const typed = a.simpleId.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
      const bySimple = await list(owner.token, `simpleId=${typed.slice(0, 4)}-${typed.slice(4)}`);
      expect(bySimple.result.map((s) => s.id)).toEqual([a.id]);
      expect((await list(outsider.token, `simpleId=${a.simpleId}`)).count).toBe(0);
      expect((await list(owner.token, `tag=needle`)).result.map((s) => s.id)).toEqual([a.id]);
      expect((await list(owner.token, `id=${a.id}&id=${crypto.randomUUID()}`)).count).toBe(1);
      expect((await list(owner.token, `animalName=rat&organId=${organId}`)).count).toBe(2);
      expect((await list(owner.token, `storageStatus=archived`)).count).toBe(0);
      expect((await list(owner.token, `organizationId=${other}`)).count).toBe(0);
      expect((await list(admin, `organizationId=${other}`)).count).toBe(1);
      const asc = await list(owner.token, 'orderBy=simpleId&orderDirection=asc&limit=100');
      const sorted = [...asc.result.map((s) => s.simpleId)].sort();
      expect(asc.result.map((s) => s.simpleId)).toEqual(sorted);
      expect((await list(owner.token, `search=${a.simpleId.slice(2, 6)}`)).result.map((s) => s.id)).toContain(
        a.id,
      );
      // The label repair's search: a typed beginning finds it, the same letters further in do not.
      const prefix = typed.slice(0, 3);
      const byPrefix = await list(owner.token, `simpleIdPrefix=${prefix}&limit=100`);
      expect(byPrefix.result.map((s) => s.id)).toContain(a.id);
      expect(byPrefix.result.every((s) => s.simpleId.startsWith(a.simpleId.slice(0, 3)))).toBe(true);
      expect(
        (await list(owner.token, `simpleIdPrefix=${a.simpleId.slice(1, 5)}`)).result.map((s) => s.id),
      ).not.toContain(a.id);
      expect((await list(owner.token, 'simpleIdPrefix=%25')).count).toBe(0);
    });

    it('refuses unknown enum values and bad dates', async () => {
      for (const qs of ['storageStatus=archiving', 'orderBy=colour', 'archiveAtEnd=soon', 'limit=0']) {
        const res = await call(owner.token, 'GET', `/scan-groups?${qs}`);
        expect(res.statusCode, qs).toBe(400);
        expect(res.json().message).toMatch(/^querystring\./);
      }
    });
  });

  describe('archive and reactivate (§4.2)', () => {
    it('archives now, lets the storage job finish, and reactivates', async () => {
      const sg = await make();
      const image = await createImageRecord(t.app.ctx.db, {
        name: 'a.czi',
        organizationId: lab,
        creatorUserId: owner.id,
        scanGroupId: sg.id,
      });
      const archive = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { archiveAt: new Date().toISOString() },
      });
      expect(archive.statusCode).toBe(200);
      expect(archive.json().result).toMatchObject({ storageStatus: 'archiveReady', status: 'archiving' });
      const frozen = await call(admin, 'PATCH', `/scan-groups/${sg.id}`, { scanGroup: { name: 'x' } });
      expect(frozen.statusCode).toBe(409);
      expect(frozen.json().message).toBe(ScanGroupText.archived);

      await t.app.ctx.db.transaction((tx) => advanceStorage(tx, sg.id));
      expect((await stored(sg.id)).storageStatus).toBe('archived');
      const [img] = await t.app.ctx.db.select().from(images).where(eq(images.id, image.id));
      expect(img.storageStatus).toBe('archived');

      const reactivate = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { archiveAt: null },
      });
      expect(reactivate.statusCode).toBe(200);
      expect(reactivate.json().result).toMatchObject({
        storageStatus: 'restoring',
        status: 'restoring',
        archiveAt: null,
      });
      const twice = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { archiveAt: new Date().toISOString() },
      });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().message).toBe(errorText('SLIDE_BEING_REACTIVATED'));
      expect(await advanceStorage(t.app.ctx.db, sg.id)).toBe('active');
      expect(await advanceStorage(t.app.ctx.db, sg.id)).toBeUndefined();
      const row = await stored(sg.id);
      expect(row.storageHistory.map((h) => h.storageStatus)).toEqual([
        'active',
        'archiveReady',
        'archived',
        'restoring',
        'active',
      ]);
      expect(row.status).toBe('active');
      const feed = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, sg.id));
      expect(feed.map((a) => a.actionType)).toEqual(['create', 'archive', 'reactivate']);
    });

    it('takes the whole slide sent back, archiving when only archiveAt differs', async () => {
      const sg = await make();
      const { id: _id, ...echo } = (await call(owner.token, 'GET', `/scan-groups/${sg.id}`)).json().result;
      const res = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { ...echo, archiveAt: new Date().toISOString() },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result.storageStatus).toBe('archiveReady');
      const fixed = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { ...echo, simpleId: 'ZZZZZZZZ' },
      });
      expect(fixed.statusCode).toBe(400);
      expect(fixed.json().message).toBe('body.scanGroup.simpleId: cannot be changed');
    });

    it('schedules a later archive without moving storage; the job starts it when due', async () => {
      const sg = await make();
      const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const res = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { archiveAt: later },
      });
      expect(res.json().result).toMatchObject({
        storageStatus: 'active',
        archiveAt: later.replace('Z', '') + 'Z',
      });
      expect(await advanceStorage(t.app.ctx.db, sg.id)).toBeUndefined();
      expect(await advanceStorage(t.app.ctx.db, sg.id, new Date(Date.now() + 8 * 86_400_000))).toBe(
        'archiveReady',
      );
      expect(await failStorage(t.app.ctx.db, sg.id)).toBe('archiveFailure');
    });

    it('lets the creator while assigned and the archivist archive; nobody else', async () => {
      const sg = await make();
      const now = { scanGroup: { archiveAt: new Date().toISOString() } };
      const colleagueTry = await call(colleague.token, 'PATCH', `/scan-groups/${sg.id}`, now);
      expect(colleagueTry.statusCode).toBe(403);
      expect(colleagueTry.json().message).toBe(AccessText.generic);
      expect((await call(outsider.token, 'PATCH', `/scan-groups/${sg.id}`, now)).statusCode).toBe(404);
      expect((await stored(sg.id)).storageStatus).toBe('active');
      expect((await call(manager.token, 'PATCH', `/scan-groups/${sg.id}`, now)).statusCode).toBe(200);
      // The creator once unassigned (by the manager) may no longer archive.
      const mine = await make();
      const unassign = await call(manager.token, 'PATCH', `/scan-groups/${mine.id}`, {
        scanGroup: { assigneeUserIds: [], assigneeOrgIds: [] },
      });
      expect(unassign.statusCode).toBe(200);
      expect((await call(owner.token, 'PATCH', `/scan-groups/${mine.id}`, now)).statusCode).toBe(403);
    });
  });

  describe('share and edit', () => {
    it('shares with manageOrganizationSlides; images inherit the new assignees', async () => {
      const sg = await make();
      const image = await createImageRecord(t.app.ctx.db, {
        name: 'b.czi',
        organizationId: lab,
        creatorUserId: owner.id,
        scanGroupId: sg.id,
      });
      const denied = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, {
        add: { assigneeUserIds: [colleague.id] },
      });
      expect(denied.statusCode).toBe(403);
      const shared = await call(manager.token, 'PATCH', `/scan-groups/${sg.id}`, {
        add: { assigneeUserIds: [colleague.id] },
      });
      expect(shared.statusCode).toBe(200);
      expect(shared.json().result.assigneeUserIds).toEqual([owner.id, colleague.id]);
      const [img] = await t.app.ctx.db.select().from(images).where(eq(images.id, image.id));
      expect(img.inheritedAssignees).toContainEqual({
        assigneeId: colleague.id,
        assigneeType: 'User',
        sourceId: sg.id,
        sourceType: 'ScanGroup',
        count: 1,
      });
      const stranger = await call(manager.token, 'PATCH', `/scan-groups/${sg.id}`, {
        add: { assigneeUserIds: [outsider.id] },
      });
      expect(stranger.statusCode).toBe(400);
      expect(stranger.json().message).toBe('scanGroup.assigneeUserIds: No such user is available to you');
      const feed = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, sg.id));
      expect(feed.map((a) => a.actionType)).toContain('share');
    });

    it('edits other fields only with platform rights, and checks the values', async () => {
      const sg = await make();
      const denied = await call(owner.token, 'PATCH', `/scan-groups/${sg.id}`, { scanGroup: { notes: 'x' } });
      expect(denied.statusCode).toBe(403);
      const ok = await call(admin, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { notes: 'stained', organId },
        add: { tags: ['HE'] },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result).toMatchObject({ notes: 'stained', organId, animal: 'Rat', tags: ['HE'] });
      const dup = await call(admin, 'PATCH', `/scan-groups/${sg.id}`, { add: { tags: ['he'] } });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe('This tag already exists');
      // Storage moves only through archiveAt: an echoed storageStatus is ignored, an unknown field refused.
      const echoed = await call(admin, 'PATCH', `/scan-groups/${sg.id}`, {
        scanGroup: { storageStatus: 'archived' },
      });
      expect(echoed.statusCode).toBe(200);
      expect((await stored(sg.id)).storageStatus).toBe('active');
      const bad = await call(admin, 'PATCH', `/scan-groups/${sg.id}`, { scanGroup: { colour: 'red' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('body.scanGroup: Unrecognized key: "colour"');
    });
  });

  describe('delete', () => {
    it('deletes for platform rights only; studies drop it, images stay without it', async () => {
      const sg = await make();
      const study = (
        await call(owner.token, 'POST', '/studies', { study: { name: 'S', scanGroupIds: [sg.id] } })
      ).json().result;
      const image = await createImageRecord(t.app.ctx.db, {
        name: 'c.czi',
        organizationId: lab,
        creatorUserId: owner.id,
        scanGroupId: sg.id,
      });
      const denied = await call(owner.token, 'DELETE', `/scan-groups/${sg.id}`);
      expect(denied.statusCode).toBe(403);
      expect((await call(outsider.token, 'DELETE', `/scan-groups/${sg.id}`)).statusCode).toBe(404);
      const ok = await call(admin, 'DELETE', `/scan-groups/${sg.id}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ result: { id: sg.id } });
      expect(await stored(sg.id)).toBeUndefined();
      const [s] = await t.app.ctx.db.select().from(studies).where(eq(studies.id, study.id));
      expect(s.scanGroupIds).toEqual([]);
      const [img] = await t.app.ctx.db.select().from(images).where(eq(images.id, image.id));
      expect(img.scanGroupId).toBeNull();
      const stones = await t.app.ctx.db.select().from(tombstones).where(eq(tombstones.id, sg.id));
      expect(stones.map((x) => x.kind)).toEqual(['scan-groups']);
    });
  });
});

// /v2/scan-orders and /v2/scan-order-lists through HTTP: creation for oneself in the own organization,
// readable references, status only to active in the own organization, lists created active and
// managed by their creator; on PGlite and (when it answers) PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { Denied } from '../../src/api/messages';
import {
  activities,
  pipelines,
  scanGroups,
  scanOrderLists,
  scanOrders,
  studies,
} from '../../src/server/db/schema';
import {
  addLabFixture,
  bearer,
  dbTargets,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();
type Method = 'GET' | 'POST' | 'PATCH';

describe.each(targets)('orders on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  const ids = {
    pipeline: crypto.randomUUID(),
    otherPipeline: crypto.randomUUID(),
    slide: crypto.randomUUID(),
    study: crypto.randomUUID(),
    study2: crypto.randomUUID(),
  };
  let orderId: string;
  let listId: string;

  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
    const db = t.app.ctx.db;
    await db.insert(pipelines).values([
      { id: ids.pipeline, name: 'H&E', assigneeOrgIds: [f.orgs.lab] },
      { id: ids.otherPipeline, name: 'Elsewhere', assigneeOrgIds: [f.orgs.other] },
    ]);
    await db.insert(scanGroups).values({ id: ids.slide, simpleId: 'NS-0001', organizationId: f.orgs.teamA });
    await db.insert(studies).values([
      { id: ids.study, name: 'Liver fibrosis', organizationId: f.orgs.teamA, assigneeOrgIds: [f.orgs.teamA] },
      { id: ids.study2, name: 'Kidney', organizationId: f.orgs.other, assigneeOrgIds: [f.orgs.platform] },
    ]);
  });
  afterAll(() => t.close());

  const call = (who: Persona, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(who.token), payload });
  const storedOrder = async (id: string) =>
    (await t.app.ctx.db.select().from(scanOrders).where(eq(scanOrders.id, id)))[0];

  describe('POST /v2/scan-orders', () => {
    it('creates an inactive order for oneself in the own organization', async () => {
      const res = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.pipeline, scanGroupId: ids.slide, studyIds: [ids.study], notes: 'rush' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const order = res.json().result;
      expect(order).toMatchObject({
        status: 'inactive',
        creatorUserId: f.member.id,
        organizationId: f.orgs.teamA,
        pipelineId: ids.pipeline,
        scanGroupId: ids.slide,
        studyIds: [ids.study],
        notes: 'rush',
      });
      orderId = order.id;
      expect((await storedOrder(order.id)).notes).toBe('rush');
      const log = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, order.id));
      expect(log.map((a) => a.actionType)).toEqual(['create']);
    });

    it('refuses an order for someone else, in another organization, or without the policy', async () => {
      const other = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.pipeline, creatorUserId: f.qc.id },
      });
      expect(other.statusCode).toBe(403);
      expect(other.json().message).toBe(Denied.scanOrdersForYourself);
      const elsewhere = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.pipeline, organizationId: f.orgs.lab },
      });
      expect(elsewhere.statusCode).toBe(403);
      expect(elsewhere.json().message).toBe(Denied.noOrderPermission);
      const none = await call(f.qc, 'POST', '/scan-orders', { scanOrder: { pipelineId: ids.pipeline } });
      expect(none.statusCode).toBe(403);
      expect(none.json().message).toBe(Denied.noOrderPermission);
    });

    it('refuses references the caller cannot read, and bad input', async () => {
      const pipeline = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.otherPipeline },
      });
      expect(pipeline.statusCode).toBe(400);
      expect(pipeline.json().message).toBe(errorText('NO_SUCH_PIPELINE'));
      const slide = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.pipeline, scanGroupId: crypto.randomUUID() },
      });
      expect(slide.json().message).toBe(errorText('NO_SUCH_SLIDE'));
      const study = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.pipeline, studyIds: [ids.study2] },
      });
      expect(study.json().message).toBe(errorText('NO_SUCH_STUDY', { id: ids.study2 }));
      const missing = await call(f.member, 'POST', '/scan-orders', { scanOrder: { notes: 'x' } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toMatch(/^body\.scanOrder\.pipelineId: /);
      const status = await call(f.member, 'POST', '/scan-orders', {
        scanOrder: { pipelineId: ids.pipeline, status: 'active' },
      });
      expect(status.statusCode).toBe(400);
      expect((await t.app.ctx.db.select().from(scanOrders)).length).toBe(1);
    });
  });

  describe('GET /v2/scan-orders', () => {
    it('lists what is readable, filtered by repeated status', async () => {
      const admin = await call(f.orgAdmin, 'GET', '/scan-orders?status=inactive&status=active');
      expect(admin.json()).toMatchObject({ count: 1, page: 1, limit: 10 });
      expect((await call(f.orgAdmin, 'GET', '/scan-orders?status=fulfilled')).json().count).toBe(0);
      expect((await call(f.outsider, 'GET', '/scan-orders')).json().count).toBe(0);
      expect((await call(f.platform, 'GET', '/scan-orders')).json().count).toBe(1);
      const bad = await call(f.orgAdmin, 'GET', '/scan-orders?status=done');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^querystring\.status/);
    });

    it('answers one order, and hides it from other organizations', async () => {
      expect((await call(f.qc, 'GET', `/scan-orders/${orderId}`)).json().result.id).toBe(orderId);
      const hidden = await call(f.outsider, 'GET', `/scan-orders/${orderId}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Scan order not found');
    });
  });

  describe('PATCH /v2/scan-orders/:id', () => {
    it('changes the status only to active, only in the own organization', async () => {
      const parent = await call(f.orgAdmin, 'PATCH', `/scan-orders/${orderId}`, {
        scanOrder: { status: 'active' },
      });
      expect(parent.statusCode).toBe(403);
      const done = await call(f.member, 'PATCH', `/scan-orders/${orderId}`, {
        scanOrder: { status: 'fulfilled' },
      });
      expect(done.statusCode).toBe(403);
      expect(done.json().message).toBe(AccessText.generic);
      const notes = await call(f.member, 'PATCH', `/scan-orders/${orderId}`, {
        scanOrder: { notes: 'edit' },
      });
      expect(notes.statusCode).toBe(403);
      expect((await storedOrder(orderId)).status).toBe('inactive');
      const ok = await call(f.member, 'PATCH', `/scan-orders/${orderId}`, {
        scanOrder: { status: 'active' },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.status).toBe('active');
    });

    it('lets platform scan managers edit the rest, merging set edits', async () => {
      await call(f.platform, 'PATCH', `/scan-orders/${orderId}`, { add: { studyIds: [ids.study2] } });
      const res = await call(f.platform, 'PATCH', `/scan-orders/${orderId}`, {
        remove: { studyIds: [ids.study] },
        add: { assigneeUserIds: [f.qc.id] },
        scanOrder: { notes: 'checked' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({
        studyIds: [ids.study2],
        assigneeUserIds: [f.qc.id],
        notes: 'checked',
      });
      const ghost = await call(f.platform, 'PATCH', `/scan-orders/${orderId}`, {
        add: { assigneeOrgIds: [crypto.randomUUID()] },
      });
      expect(ghost.statusCode).toBe(400);
      expect(ghost.json().message).toMatch(/^assigneeOrgIds: no such organization /);
    });
  });

  describe('scan order lists', () => {
    it('creates an active list from the flat body of §7', async () => {
      const res = await call(f.member, 'POST', '/scan-order-lists', {
        status: 'active',
        creatorUserId: f.member.id,
        organizationId: f.orgs.teamA,
        assigneeUserIds: [f.member.id],
        assigneeOrgIds: [f.orgs.teamA],
        scanOrderIds: [orderId],
        expiration: '2030-06-01T00:00:00.000Z',
      });
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json().result;
      expect(list).toMatchObject({
        status: 'active',
        creatorUserId: f.member.id,
        scanOrderIds: [orderId],
        assigneeIds: [f.member.id, f.orgs.teamA],
        expiration: '2030-06-01T00:00:00.000Z',
      });
      listId = list.id;
    });

    it('refuses a list not active, for someone else, or with unreadable orders', async () => {
      const inactive = await call(f.member, 'POST', '/scan-order-lists', {
        scanOrderList: { status: 'inactive' },
      });
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json().message).toBe(
        'body.scanOrderList.status: A new scan order list is created as active',
      );
      const other = await call(f.member, 'POST', '/scan-order-lists', {
        scanOrderList: { creatorUserId: f.qc.id },
      });
      expect(other.statusCode).toBe(403);
      expect(other.json().message).toBe(Denied.scanOrdersForYourself);
      const hidden = await call(f.outsider, 'POST', '/scan-order-lists', {
        scanOrderList: { scanOrderIds: [orderId] },
      });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json().message).toBe(errorText('NO_SUCH_SCAN_ORDER', { id: orderId }));
      expect(await t.app.ctx.db.select().from(scanOrderLists)).toHaveLength(1);
    });

    it('lists and reads by scope', async () => {
      expect((await call(f.orgAdmin, 'GET', '/scan-order-lists?status=active')).json().count).toBe(1);
      expect((await call(f.outsider, 'GET', '/scan-order-lists')).json().count).toBe(0);
      expect((await call(f.member, 'GET', `/scan-order-lists/${listId}`)).statusCode).toBe(200);
      const hidden = await call(f.outsider, 'GET', `/scan-order-lists/${listId}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Scan order list not found');
    });

    it('lets the creator manage the list, nobody else in the organization', async () => {
      const qc = await call(f.qc, 'PATCH', `/scan-order-lists/${listId}`, {
        scanOrderList: { status: 'fulfilled' },
      });
      expect(qc.statusCode).toBe(403);
      const res = await call(f.member, 'PATCH', `/scan-order-lists/${listId}`, {
        scanOrderList: { status: 'processing', expiration: null },
        remove: { assigneeOrgIds: [f.orgs.teamA] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({ status: 'processing', expiration: null, assigneeOrgIds: [] });
      const sort = await call(f.member, 'PATCH', `/scan-order-lists/${listId}`, {
        scanOrderList: { orderBy: 'name' },
      });
      expect(sort.statusCode).toBe(403);
    });
  });
  describe('sync feed', () => {
    it('serves scan orders and lists to those who may read them', async () => {
      const ids = async (who: Persona, kind: string) =>
        ((await call(who, 'GET', `/sync/${kind}`)).json() as { result: Array<{ id: string }> }).result.map(
          (r) => r.id,
        );
      expect(await ids(f.member, 'scan-orders')).toEqual([orderId]);
      expect(await ids(f.outsider, 'scan-orders')).toEqual([]);
      expect(await ids(f.qc, 'scan-order-lists')).toEqual([listId]);
      expect(await ids(f.outsider, 'scan-order-lists')).toEqual([]);
    });
  });
});

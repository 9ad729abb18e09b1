// Order status follows the work: orders gathered into an active list are placed (active);
// an image of the slide moves them to processing, all images completed to fulfilled, a failed one to
// failed; the list follows its orders; only a change to active may be made by hand (§4.5). The steps
// are in the activity feed (the order report's history). On PGlite and (when it answers) PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { activities, images, pipelines, scanOrderLists, scanOrders } from '../../src/server/db/schema';
import { followSlideOrders, listStatusFromOrders, statusFromImages } from '../../src/server/orders/follow';
import {
  addLabFixture,
  bearer,
  dbTargets,
  insertImageRow,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';

describe('statusFromImages / listStatusFromOrders', () => {
  it.each([
    [[], undefined],
    [['created'], 'processing'],
    [['processing', 'completed'], 'processing'],
    [['completed', 'completed'], 'fulfilled'],
    [['completed', 'failed'], 'failed'],
    [['rejected'], 'failed'],
  ])('images %j → %s', (statuses, want) => expect(statusFromImages(statuses)).toBe(want));
  it.each([
    [['active', 'active'], 'active'],
    [['active', 'processing'], 'processing'],
    [['fulfilled', 'active'], 'processing'],
    [['fulfilled', 'fulfilled'], 'fulfilled'],
    [['fulfilled', 'failed'], 'failed'],
  ])('orders %j → %s', (statuses, want) => expect(listStatusFromOrders(statuses)).toBe(want));
});

const targets = await dbTargets();

describe.each(targets)('orders follow their slide on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  const pipelineId = crypto.randomUUID();

  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
    await t.app.ctx.db
      .insert(pipelines)
      .values({ id: pipelineId, name: 'H&E', assigneeOrgIds: [f.orgs.lab] });
  });
  afterAll(() => t.close());

  const call = (who: Persona, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(who.token), payload });
  const status = async (id: string) =>
    (await t.app.ctx.db.select().from(scanOrders).where(eq(scanOrders.id, id)))[0].status;
  const listStatus = async (id: string) =>
    (await t.app.ctx.db.select().from(scanOrderLists).where(eq(scanOrderLists.id, id)))[0].status;

  /** A slide of team A with one image in `imageStatus`, and an order of it placed in a new list. */
  async function placedOrder(simpleId: string) {
    const slide = await call(f.member, 'POST', '/scan-groups', { scanGroup: { notes: simpleId } });
    expect(slide.statusCode, slide.body).toBe(200);
    const scanGroupId = slide.json().result.id as string;
    const order = await call(f.member, 'POST', '/scan-orders', { scanOrder: { pipelineId, scanGroupId } });
    expect(order.statusCode, order.body).toBe(200);
    const orderId = order.json().result.id as string;
    expect(order.json().result.status).toBe('inactive');
    const list = await call(f.member, 'POST', '/scan-order-lists', {
      scanOrderList: { status: 'active', scanOrderIds: [orderId], expiration: '2030-01-01T00:00:00.000Z' },
    });
    expect(list.statusCode, list.body).toBe(200);
    return { scanGroupId, orderId, listId: list.json().result.id as string };
  }

  it('an order gathered into an active list is placed (active)', async () => {
    const { orderId, listId } = await placedOrder('placed');
    expect(await status(orderId)).toBe('active');
    expect(await listStatus(listId)).toBe('active');
    const got = await call(f.member, 'GET', `/scan-orders?status=active&id=${orderId}`);
    expect(got.json().count).toBe(1);
  });

  it('goes processing with an image of its slide, then fulfilled when all are completed', async () => {
    const { scanGroupId, orderId, listId } = await placedOrder('works');
    await followSlideOrders(t.app.ctx.db, [scanGroupId]); // no image yet: nothing moves
    expect(await status(orderId)).toBe('active');
    const first = await insertImageRow(t.app, {
      organizationId: f.orgs.teamA,
      scanGroupId,
      status: 'processing',
    });
    await insertImageRow(t.app, { organizationId: f.orgs.teamA, scanGroupId, status: 'completed' });
    await followSlideOrders(t.app.ctx.db, [scanGroupId]);
    expect(await status(orderId)).toBe('processing');
    expect(await listStatus(listId)).toBe('processing');
    await t.app.ctx.db.update(images).set({ status: 'completed' }).where(eq(images.id, first.imageId));
    await followSlideOrders(t.app.ctx.db, [scanGroupId]);
    expect(await status(orderId)).toBe('fulfilled');
    expect(await listStatus(listId)).toBe('fulfilled');
    const steps = await t.app.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.reference, 'ScanOrder'), eq(activities.referenceId, orderId)));
    expect(steps.map((s) => (s.diff as { status?: string }).status).filter(Boolean)).toEqual([
      'active',
      'processing',
      'fulfilled',
    ]);
  });

  it('an image already completed still passes through processing; a failed one fails the order', async () => {
    const done = await placedOrder('fast');
    await insertImageRow(t.app, {
      organizationId: f.orgs.teamA,
      scanGroupId: done.scanGroupId,
      status: 'completed',
    });
    await followSlideOrders(t.app.ctx.db, [done.scanGroupId]);
    expect(await status(done.orderId)).toBe('fulfilled');
    const steps = await t.app.ctx.db
      .select()
      .from(activities)
      .where(eq(activities.referenceId, done.orderId));
    expect(steps.map((s) => (s.diff as { status?: string }).status)).toContain('processing');

    const bad = await placedOrder('bad');
    await insertImageRow(t.app, {
      organizationId: f.orgs.teamA,
      scanGroupId: bad.scanGroupId,
      status: 'failed',
    });
    await followSlideOrders(t.app.ctx.db, [bad.scanGroupId]);
    expect(await status(bad.orderId)).toBe('failed');
    expect(await listStatus(bad.listId)).toBe('failed');

    // §4.5: by hand only back to active, only in the own organization.
    const toFulfilled = await call(f.member, 'PATCH', `/scan-orders/${bad.orderId}`, {
      scanOrder: { status: 'fulfilled' },
    });
    expect(toFulfilled.statusCode).toBe(403);
    const outsider = await call(f.outsider, 'PATCH', `/scan-orders/${bad.orderId}`, {
      scanOrder: { status: 'active' },
    });
    expect([403, 404]).toContain(outsider.statusCode);
    const back = await call(f.member, 'PATCH', `/scan-orders/${bad.orderId}`, {
      scanOrder: { status: 'active' },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().result.status).toBe('active');
  });

  it('an order not placed (inactive) does not follow', async () => {
    const slide = await call(f.member, 'POST', '/scan-groups', { scanGroup: {} });
    const scanGroupId = slide.json().result.id as string;
    const order = await call(f.member, 'POST', '/scan-orders', { scanOrder: { pipelineId, scanGroupId } });
    await insertImageRow(t.app, { organizationId: f.orgs.teamA, scanGroupId, status: 'completed' });
    await followSlideOrders(t.app.ctx.db, [scanGroupId]);
    expect(await status(order.json().result.id)).toBe('inactive');
  });
});

// Order status follows the work (§4.1): an order of a slide goes processing once an image of
// that slide is there, fulfilled once all of the slide's images are completed, failed when one of
// them failed. Only orders that were placed (active) or are under way (processing) follow; inactive
// ones (not placed) and finished ones (fulfilled, failed) stay as they are — a person may set a failed
// order back to active (§4.5), and it then follows again. An order list follows its orders: processing
// while any is, fulfilled when all are fulfilled, failed when all are finished and one failed.
// Every change is recorded in the activity feed, which the order report shows as the order's history.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ScanOrderStatus } from '../../api/enums';
import { recordActivity } from '../activities/record';
import type { Db } from '../db/client';
import { images, scanOrderLists, scanOrders } from '../db/schema';
import { sqlArray } from '../users/repository';

const FOLLOWING = ['active', 'processing'] as const;
const FAILED_IMAGE = new Set(['failed', 'rejected']);

/** What the images of one slide say its orders are at; undefined when the slide has no image yet. */
export function statusFromImages(statuses: readonly string[]): ScanOrderStatus | undefined {
  if (statuses.length === 0) return undefined;
  if (statuses.some((s) => FAILED_IMAGE.has(s))) return 'failed';
  if (statuses.every((s) => s === 'completed')) return 'fulfilled';
  return 'processing';
}

/** What a list's orders say the list is at (lists that are inactive are left alone by the caller). */
export function listStatusFromOrders(statuses: readonly string[]): ScanOrderStatus {
  if (statuses.length === 0 || statuses.every((s) => s === 'active' || s === 'inactive')) return 'active';
  if (statuses.some((s) => s === 'processing' || s === 'active' || s === 'inactive')) return 'processing';
  return statuses.every((s) => s === 'fulfilled') ? 'fulfilled' : 'failed';
}

async function setOrderStatus(
  db: Db,
  row: { id: string; organizationId: string },
  status: ScanOrderStatus,
): Promise<void> {
  await db.update(scanOrders).set({ status, updatedAt: new Date() }).where(eq(scanOrders.id, row.id));
  await recordActivity(db, {
    actionType: 'update',
    reference: 'ScanOrder',
    referenceId: row.id,
    diff: { status },
    creatorUserId: null,
    organizationId: row.organizationId,
  });
}

/**
 * Moves the orders of these slides to where their images are, and their lists after them.
 * Side effects: updates scan_orders / scan_order_lists rows and appends activities. Idempotent.
 */
export async function followSlideOrders(db: Db, scanGroupIds: readonly string[]): Promise<void> {
  const slideIds = [...new Set(scanGroupIds)].filter(Boolean);
  if (slideIds.length === 0) return;
  const orders = await db
    .select({
      id: scanOrders.id,
      organizationId: scanOrders.organizationId,
      status: scanOrders.status,
      scanGroupId: scanOrders.scanGroupId,
    })
    .from(scanOrders)
    .where(and(inArray(scanOrders.scanGroupId, slideIds), inArray(scanOrders.status, [...FOLLOWING])));
  if (orders.length === 0) return;
  const imageRows = await db
    .select({ scanGroupId: images.scanGroupId, status: images.status })
    .from(images)
    .where(inArray(images.scanGroupId, slideIds));
  const bySlide = new Map<string, string[]>();
  for (const r of imageRows) {
    if (!r.scanGroupId) continue;
    bySlide.set(r.scanGroupId, [...(bySlide.get(r.scanGroupId) ?? []), r.status]);
  }
  const changed: string[] = [];
  for (const order of orders) {
    const next = statusFromImages(bySlide.get(order.scanGroupId ?? '') ?? []);
    if (!next || next === order.status) continue;
    // An image that arrives already finished still passes through processing, so the history reads
    // active → processing → fulfilled (or failed) whatever the timing.
    if (order.status === 'active' && next !== 'processing') await setOrderStatus(db, order, 'processing');
    await setOrderStatus(db, order, next);
    changed.push(order.id);
  }
  if (changed.length > 0) await followLists(db, changed);
}

/** Recomputes the status of the lists holding these orders (lists set inactive by hand stay so). */
export async function followLists(db: Db, orderIds: readonly string[]): Promise<void> {
  const lists = await db
    .select()
    .from(scanOrderLists)
    .where(sql`${scanOrderLists.scanOrderIds} && ${sqlArray(orderIds)}`);
  for (const list of lists) {
    if (list.status === 'inactive' || list.scanOrderIds.length === 0) continue;
    const rows = await db
      .select({ status: scanOrders.status })
      .from(scanOrders)
      .where(inArray(scanOrders.id, list.scanOrderIds));
    const next = listStatusFromOrders(rows.map((r) => r.status));
    if (next === list.status) continue;
    await db
      .update(scanOrderLists)
      .set({ status: next, updatedAt: new Date() })
      .where(eq(scanOrderLists.id, list.id));
  }
}

/** Orders gathered into an active list are placed: the inactive ones among them become active. */
export async function activateListed(db: Db, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const rows = await db
    .select({
      id: scanOrders.id,
      organizationId: scanOrders.organizationId,
      scanGroupId: scanOrders.scanGroupId,
    })
    .from(scanOrders)
    .where(and(inArray(scanOrders.id, [...orderIds]), eq(scanOrders.status, 'inactive')));
  for (const row of rows) await setOrderStatus(db, row, 'active');
  // A slide may already have its images (ordered after scanning): follow them at once.
  await followSlideOrders(
    db,
    rows.map((r) => r.scanGroupId).filter((id): id is string => !!id),
  );
}

/** The orders of the slide this image belongs to, if it belongs to one (after a failure, a link). */
export async function followImageOrders(db: Db, imageId: string): Promise<void> {
  const [row] = await db
    .select({ scanGroupId: images.scanGroupId })
    .from(images)
    .where(eq(images.id, imageId));
  if (row?.scanGroupId) await followSlideOrders(db, [row.scanGroupId]);
}

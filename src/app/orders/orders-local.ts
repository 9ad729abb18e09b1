// Slide labels and scan orders from the local store (so the order pages work offline): the user's
// labels with their organ, images and orders; orders with their slide, pipeline, studies and list; and
// the local copies new labels and orders show until the server's arrive. A label made here and not yet
// on the server has no simpleId: it shows a provisional id and cannot be printed.
import type { Me } from '../../api/auth';
import type { Image, Organ, Pipeline, ScanGroup, ScanOrder, ScanOrderList, Study } from '../../api/entities';
import type { ScanOrderStatus } from '../../api/enums';
import type { LocalDb } from '../../local/db';
import { readRow, readRows } from '../../local/read';
import type { Local } from '../../local/restore';

export type LocalLabel = Local<ScanGroup>;

/** A label that has not reached the server yet: no simpleId (the server gives it). */
export const isProvisional = (sg: Pick<ScanGroup, 'simpleId'>) => !sg.simpleId;

/** What a provisional label shows instead of its simpleId: part of its device-made id. */
export const provisionalId = (id: string) => `…${id.replace(/-/g, '').slice(0, 6).toUpperCase()}`;

/** The id to show: the simpleId, or the provisional one. */
export const shownId = (sg: Pick<ScanGroup, 'id' | 'simpleId'>) =>
  isProvisional(sg) ? provisionalId(sg.id) : sg.simpleId;

export interface LabelRow {
  label: LocalLabel;
  organ?: Organ;
  images: Local<Image>[];
  orders: Local<ScanOrder>[];
}

async function byId<T extends { id: string }>(db: LocalDb, kind: 'organs'): Promise<Map<string, Local<T>>> {
  return new Map((await readRows<T>(db, kind)).map((r) => [r.id, r]));
}

/**
 * The user's labels, newest first. `activeOnly`: only slides in active storage (Active Labels, §2.5).
 * Each with its organ, images and orders (read from the local mirror of those kinds).
 */
export async function readMyLabels(
  db: LocalDb,
  userId: string,
  opts: { activeOnly?: boolean; limit?: number } = {},
): Promise<LabelRow[]> {
  const labels = await readRows<ScanGroup>(db, 'scan-groups', {
    orderBy: 'createdAt',
    reverse: true,
    where: (r) => r.creatorUserId === userId && (!opts.activeOnly || r.storageStatus === 'active'),
    limit: opts.limit,
  });
  const ids = new Set(labels.map((l) => l.id));
  const [organs, images, orders] = await Promise.all([
    byId<Organ>(db, 'organs'),
    readRows<Image>(db, 'images', {
      where: (r) => typeof r.scanGroupId === 'string' && ids.has(r.scanGroupId),
    }),
    readRows<ScanOrder>(db, 'scan-orders', {
      where: (r) => typeof r.scanGroupId === 'string' && ids.has(r.scanGroupId),
    }),
  ]);
  return labels.map((label) => ({
    label,
    organ: label.organId ? organs.get(label.organId) : undefined,
    images: images.filter((i) => i.scanGroupId === label.id),
    orders: orders.filter((o) => o.scanGroupId === label.id),
  }));
}

export async function readLabel(db: LocalDb, id: string): Promise<LabelRow | undefined> {
  const label = await readRow<ScanGroup>(db, 'scan-groups', id);
  if (!label) return undefined;
  const [organ, images, orders] = await Promise.all([
    label.organId ? readRow<Organ>(db, 'organs', label.organId) : undefined,
    readRows<Image>(db, 'images', { where: (r) => r.scanGroupId === id }),
    readRows<ScanOrder>(db, 'scan-orders', { where: (r) => r.scanGroupId === id }),
  ]);
  return { label, organ, images, orders };
}

export interface OrderRow {
  order: Local<ScanOrder>;
  slide?: LocalLabel;
  pipeline?: Pipeline;
  studies: Study[];
  list?: Local<ScanOrderList>;
  /** The slide's images, read for failed orders only (they hold the reason). */
  images: Local<Image>[];
}

/**
 * The status an order shows. The server places an order (inactive → active) when an active order list
 * gathers it (src/server/orders/follow.ts), a side effect the local store only learns at the next
 * pull: an inactive order already in an active list shows as active meanwhile, by the same rule.
 */
export function shownStatus(
  order: Pick<ScanOrder, 'status'>,
  list: Pick<ScanOrderList, 'status'> | undefined,
): ScanOrderStatus {
  const status = order.status as ScanOrderStatus;
  return status === 'inactive' && list?.status === 'active' ? 'active' : status;
}

/** Orders in these statuses, newest first, with what they refer to. */
export async function readOrders(db: LocalDb, statuses: readonly ScanOrderStatus[]): Promise<OrderRow[]> {
  const orders = await readRows<ScanOrder>(db, 'scan-orders', {
    orderBy: 'createdAt',
    reverse: true,
    where: (r) => statuses.includes(r.status as ScanOrderStatus),
  });
  return withRefs(db, orders);
}

export async function readOrder(db: LocalDb, id: string): Promise<OrderRow | undefined> {
  const order = await readRow<ScanOrder>(db, 'scan-orders', id);
  return order ? (await withRefs(db, [order]))[0] : undefined;
}

/** Only the rows these orders name are read (the slide mirror may hold thousands). */
async function rowsById<T extends { id: string }>(
  db: LocalDb,
  kind: 'pipelines' | 'studies' | 'scan-groups',
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, Local<T>>> {
  const wanted = [...new Set([...ids].filter((id): id is string => !!id))];
  const out = new Map<string, Local<T>>();
  for (const row of await Promise.all(wanted.map((id) => readRow<T>(db, kind, id))))
    if (row) out.set(row.id, row);
  return out;
}

async function withRefs(db: LocalDb, orders: Local<ScanOrder>[]): Promise<OrderRow[]> {
  const ids = new Set(orders.map((o) => o.id));
  const failedSlides = new Set(
    orders.filter((o) => o.status === 'failed' && o.scanGroupId).map((o) => o.scanGroupId as string),
  );
  const [slides, pipelines, studies, lists, images] = await Promise.all([
    rowsById<ScanGroup>(
      db,
      'scan-groups',
      orders.map((o) => o.scanGroupId),
    ),
    rowsById<Pipeline>(
      db,
      'pipelines',
      orders.map((o) => o.pipelineId),
    ),
    rowsById<Study>(
      db,
      'studies',
      orders.flatMap((o) => o.studyIds),
    ),
    readRows<ScanOrderList>(db, 'scan-order-lists', {
      where: (r) => Array.isArray(r.scanOrderIds) && r.scanOrderIds.some((id) => ids.has(String(id))),
    }),
    failedSlides.size
      ? readRows<Image>(db, 'images', {
          where: (r) => typeof r.scanGroupId === 'string' && failedSlides.has(r.scanGroupId),
        })
      : Promise.resolve([]),
  ]);
  return orders.map((order) => ({
    order,
    slide: order.scanGroupId ? slides.get(order.scanGroupId) : undefined,
    pipeline: order.pipelineId ? pipelines.get(order.pipelineId) : undefined,
    studies: order.studyIds.map((s) => studies.get(s)).filter((s): s is Local<Study> => !!s),
    list: lists.find((l) => l.scanOrderIds.includes(order.id)),
    images: order.status === 'failed' ? images.filter((i) => i.scanGroupId === order.scanGroupId) : [],
  }));
}

export async function readCatalog(db: LocalDb) {
  const [organs, pipelines, studies] = await Promise.all([
    readRows<Organ>(db, 'organs', { orderBy: 'name' }),
    readRows<Pipeline>(db, 'pipelines'),
    readRows<Study>(db, 'studies', { orderBy: 'name' }),
  ]);
  return { organs, pipelines: [...pipelines].sort((a, b) => a.name.localeCompare(b.name)), studies };
}

const now = () => new Date().toISOString();

/** The fields of a new label the server fills in, as the local copy shows them meanwhile (§4.1). */
export function newLabelPreview(me: Me): Omit<ScanGroup, 'id' | 'animal' | 'organId' | 'notes'> {
  return {
    createdAt: now(),
    updatedAt: now(),
    creatorUserId: me.user.id,
    organizationId: me.organization.id,
    status: 'created',
    simpleId: '',
    name: null,
    LISInfo: null,
    tags: [],
    storageStatus: 'active',
    archiveAt: null,
    storageHistory: [],
    lastUploadDate: null,
    assigneeUserIds: [me.user.id],
    assigneeOrgIds: [me.organization.id],
    inheritedAssignees: [],
  };
}

export function newOrderPreview(
  me: Me,
): Omit<ScanOrder, 'id' | 'pipelineId' | 'scanGroupId' | 'studyIds' | 'notes'> {
  return {
    createdAt: now(),
    updatedAt: now(),
    creatorUserId: me.user.id,
    organizationId: me.organization.id,
    status: 'inactive',
    assigneeUserIds: [],
    assigneeOrgIds: [],
    inheritedAssignees: [],
  };
}

export function newOrderListPreview(me: Me): Omit<ScanOrderList, 'id' | 'scanOrderIds' | 'expiration'> {
  return {
    createdAt: now(),
    updatedAt: now(),
    status: 'active',
    creatorUserId: me.user.id,
    organizationId: me.organization.id,
    assigneeIds: [],
    assigneeUserIds: [],
    assigneeOrgIds: [],
    orderBy: null,
    orderDirection: null,
  };
}

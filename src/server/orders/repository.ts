// Scan order and scan order list writes, each taking the db or transaction handle so the routes keep
// their transactions, activity records and the placing of listed orders around them.
import { eq } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { scanOrderLists, scanOrders } from '../db/schema';
import type { ScanOrderListRow, ScanOrderRow } from './entities';

export async function insertScanOrder(db: Db, row: typeof scanOrders.$inferInsert): Promise<ScanOrderRow> {
  const [created] = await db.insert(scanOrders).values(row).returning();
  return created;
}

export async function updateScanOrder(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof scanOrders>,
): Promise<ScanOrderRow> {
  const [updated] = await db.update(scanOrders).set(set).where(eq(scanOrders.id, id)).returning();
  return updated;
}

export async function insertScanOrderList(
  db: Db,
  row: typeof scanOrderLists.$inferInsert,
): Promise<ScanOrderListRow> {
  const [created] = await db.insert(scanOrderLists).values(row).returning();
  return created;
}

export async function updateScanOrderList(
  db: Db,
  id: string,
  set: PgUpdateSetSource<typeof scanOrderLists>,
): Promise<ScanOrderListRow> {
  const [updated] = await db.update(scanOrderLists).set(set).where(eq(scanOrderLists.id, id)).returning();
  return updated;
}

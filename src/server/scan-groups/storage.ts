// Slide archiving and reactivation (§4.2) as a small state machine over the slide's storageStatus.
// A PATCH of archiveAt requests a step (planArchive); the storage job finishes it (advanceStorage) or
// reports a failure (failStorage). Every step appends {storageStatus, timestamp} to storageHistory,
// mirrors itself in the slide's status (archiving, archived, restoring, active...), and moves the
// slide's images along, so "You can only download active images" holds for an archived slide's images.
//
// storageStatus uses the storage vocabulary of §4.1: archiveReady is "archiving" (requested, not done),
// restoring is "Pending Reactivation".
import { eq, sql } from 'drizzle-orm';
import type { ScanGroupStatus, StorageStatus } from '../../api/enums';
import type { Db } from '../db/client';
import { images, scanGroups } from '../db/schema';
import { apiError } from '../http/errors';
import { findScanGroup, type ScanGroupRow } from './repository';

/** An archiveAt at most this far ahead counts as "now" (client clocks drift). */
export const ARCHIVE_NOW_SKEW_MS = 60_000;

const STATUS_OF: Record<StorageStatus, ScanGroupStatus> = {
  active: 'active',
  archiveReady: 'archiving',
  archived: 'archived',
  restoreReady: 'restoring',
  restoring: 'restoring',
  archiveFailure: 'archiveFailure',
  restoreFailure: 'restoreFailure',
};

export interface StoragePlan {
  archiveAt: Date | null;
  /** Set when the request starts a step. */
  storageStatus?: StorageStatus;
}

/** What a PATCH of archiveAt does to a slide, or a 409 when the slide is mid-way the other way. */
export function planArchive(
  row: Pick<ScanGroupRow, 'storageStatus'>,
  archiveAt: Date | null,
  now = new Date(),
) {
  const current = row.storageStatus as StorageStatus;
  const reactivating = ['restoreReady', 'restoring', 'restoreFailure'].includes(current);
  if (archiveAt === null) {
    // Reactivate: archived data is brought back; an archive not yet done is simply called off.
    if (current === 'archived' || current === 'restoreFailure')
      return { archiveAt: null, storageStatus: 'restoring' } satisfies StoragePlan;
    if (current === 'archiveReady' || current === 'archiveFailure')
      return { archiveAt: null, storageStatus: 'active' } satisfies StoragePlan;
    return { archiveAt: null } satisfies StoragePlan;
  }
  if (reactivating) throw apiError('SLIDE_BEING_REACTIVATED');
  if (archiveAt.getTime() <= now.getTime() + ARCHIVE_NOW_SKEW_MS) {
    if (current === 'active' || current === 'archiveFailure')
      return { archiveAt, storageStatus: 'archiveReady' } satisfies StoragePlan;
    return { archiveAt } satisfies StoragePlan;
  }
  // A later date schedules the archive; the storage job starts it when the date comes.
  if (current !== 'active') throw apiError('ARCHIVED_SLIDE_CHANGED');
  return { archiveAt } satisfies StoragePlan;
}

/** The columns of a storage step, for an UPDATE of the slide (history appended in SQL). */
export function storageStepSet(next: StorageStatus, at = new Date()) {
  const entry = JSON.stringify([{ storageStatus: next, timestamp: at.toISOString() }]);
  return {
    storageStatus: next,
    status: STATUS_OF[next],
    storageHistory: sql`${scanGroups.storageHistory} || ${entry}::jsonb`,
  };
}

/** Images follow their slide's storage. */
export async function moveImages(db: Db, scanGroupId: string, next: StorageStatus, archiveAt: Date | null) {
  await db.update(images).set({ storageStatus: next, archiveAt }).where(eq(images.scanGroupId, scanGroupId));
}

async function step(db: Db, row: ScanGroupRow, next: StorageStatus): Promise<StorageStatus> {
  await db.update(scanGroups).set(storageStepSet(next)).where(eq(scanGroups.id, row.id));
  await moveImages(db, row.id, next, row.archiveAt);
  return next;
}

/**
 * The storage job's step: archiveReady → archived, restoring → active, and an active slide whose
 * scheduled archiveAt has come → archiveReady. Returns the new storageStatus, or undefined when there
 * was nothing to do. Call inside a transaction (the row is locked while it moves).
 */
export async function advanceStorage(
  db: Db,
  scanGroupId: string,
  now = new Date(),
): Promise<StorageStatus | undefined> {
  const row = await findScanGroup(db, scanGroupId, true);
  if (!row) return undefined;
  switch (row.storageStatus as StorageStatus) {
    case 'archiveReady':
      return step(db, row, 'archived');
    case 'restoring':
    case 'restoreReady':
      return step(db, row, 'active');
    case 'active':
      if (row.archiveAt && row.archiveAt.getTime() <= now.getTime()) return step(db, row, 'archiveReady');
      return undefined;
    default:
      return undefined;
  }
}

/** The storage job could not finish: archiveReady → archiveFailure, restoring → restoreFailure. */
export async function failStorage(db: Db, scanGroupId: string): Promise<StorageStatus | undefined> {
  const row = await findScanGroup(db, scanGroupId, true);
  if (!row) return undefined;
  if (row.storageStatus === 'archiveReady') return step(db, row, 'archiveFailure');
  if (row.storageStatus === 'restoring' || row.storageStatus === 'restoreReady')
    return step(db, row, 'restoreFailure');
  return undefined;
}

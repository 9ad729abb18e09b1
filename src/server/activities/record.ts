// Appends to the activity feed (§3 Activity): who did what to which row, with the changed fields.
import crypto from 'node:crypto';
import type { Db } from '../db/client';
import { activities } from '../db/schema';

export type ActionType =
  'create' | 'update' | 'delete' | 'archive' | 'reactivate' | 'share' | 'upload' | 'review';

export interface ActivityEntry {
  actionType: ActionType;
  reference: string;
  referenceId: string | null;
  diff?: Record<string, unknown>;
  creatorUserId: string | null;
  organizationId: string | null;
}

/** The row an entry appends (a new id; no diff is an empty one). */
export const activityRow = (entry: ActivityEntry) => ({ id: crypto.randomUUID(), diff: {}, ...entry });

export async function recordActivity(db: Db, entry: ActivityEntry): Promise<void> {
  await db.insert(activities).values(activityRow(entry));
}

/** Appends several entries in one statement (an import's rows). */
export async function recordActivities(db: Db, entries: readonly ActivityEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(activities).values(entries.map(activityRow));
}

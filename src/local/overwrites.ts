// Notices of values this device's changes overwrote (src/api/edit-base.ts): when the server answers a
// sent change with `overwritten` (the change replaced a value someone else saved after the change was
// made), one notice per field is kept in `meta` until the user restores the other value or keeps
// theirs. Kept in IndexedDB, not in a page's memory: the service worker may be the one that sent it,
// and a notice must outlive a reload. Only the device that sent the change ever holds it.
import { OverwrittenList } from '../api/edit-base';
import type { SyncKind } from '../api/sync';
import type { LocalDb, OutboxEntry } from './db';
import { KIND_SPECS } from './kinds';
import { updateEntity } from './outbox';

const PREFIX = 'overwritten:';

export interface OverwriteNotice {
  /** The meta key: one notice per sent change and field. */
  key: string;
  kind: SyncKind;
  id: string;
  field: string;
  /** The value the change replaced (someone else's, newer). */
  serverValue: unknown;
  /** The value the change stored (this user's). */
  yourValue: unknown;
  /** A slide's simpleId, which names it whatever its name; absent for other kinds. */
  label?: string;
  userId?: string;
  /** ISO time the answer was stored. */
  at: string;
}

/**
 * Stores a notice per field the answer names as overwritten. Runs inside the replay's transaction over
 * meta (with the outbox and mirror), so a notice is stored exactly when its entry leaves the outbox.
 */
export async function recordOverwrites(
  db: LocalDb,
  entry: OutboxEntry,
  kind: SyncKind,
  id: string,
  answer: unknown,
): Promise<void> {
  const listed = OverwrittenList.safeParse((answer as { overwritten?: unknown } | undefined)?.overwritten);
  if (!listed.success || listed.data.length === 0) return;
  const result = (answer as { result?: Record<string, unknown> }).result;
  const label = typeof result?.simpleId === 'string' ? result.simpleId : undefined;
  const at = new Date().toISOString();
  for (const { field, serverValue, yourValue } of listed.data) {
    const notice: OverwriteNotice = {
      key: `${PREFIX}${entry.id}:${field}`,
      kind,
      id,
      field,
      serverValue,
      yourValue,
      at,
    };
    if (label) notice.label = label;
    if (entry.userId) notice.userId = entry.userId;
    await db.meta.put({ key: notice.key, value: notice });
  }
}

const isNotice = (v: unknown): v is OverwriteNotice => {
  const n = v as Partial<OverwriteNotice> | undefined;
  return (
    typeof n?.key === 'string' &&
    typeof n.id === 'string' &&
    typeof n.field === 'string' &&
    typeof n.at === 'string' &&
    KIND_SPECS.some((spec) => spec.kind === n.kind)
  );
};

/** The notices for this user (or without a user), oldest first. A Dexie promise: fit for a live query. */
export function listOverwrites(db: LocalDb, userId: string | undefined) {
  return db.meta
    .where('key')
    .startsWith(PREFIX)
    .toArray()
    .then((rows) =>
      rows
        .map((r) => r.value)
        .filter(isNotice)
        .filter((n) => !n.userId || n.userId === userId)
        .sort((a, b) => a.at.localeCompare(b.at)),
    );
}

/** Keeps this user's value: the notice goes. */
export async function dismissOverwrite(db: LocalDb, key: string): Promise<void> {
  await db.meta.delete(key);
}

/**
 * Puts the other value back: a normal change of that field (queued, sent like any other), then the
 * notice goes. Returns the queued entry, or undefined if the notice was already gone.
 */
export async function restoreOverwrite(
  db: LocalDb,
  key: string,
  userId: string | undefined,
): Promise<OutboxEntry | undefined> {
  const stored = (await db.meta.get(key))?.value;
  if (!isNotice(stored)) return undefined;
  const entry = await updateEntity(
    db,
    stored.kind,
    stored.id,
    { set: { [stored.field]: stored.serverValue } },
    { userId },
  );
  await db.meta.delete(key);
  return entry;
}

// Small values kept in the `meta` table (persisted query cache, timestamps). Reads never trust the
// stored shape: callers get `unknown` and check it.
import type { LocalDb } from './db';
import { localDb } from './db';
import { withQuotaRetry } from './quota';

export async function getValue(key: string, db: LocalDb = localDb()): Promise<unknown> {
  return (await db.meta.get(key))?.value;
}

/** Stores a value; on a full disk frees the disposable caches first (quota.ts). */
export async function setValue(key: string, value: unknown, db: LocalDb = localDb()): Promise<void> {
  await withQuotaRetry(db, () => db.meta.put({ key, value }));
}

export async function deleteValue(key: string, db: LocalDb = localDb()): Promise<void> {
  await db.meta.delete(key);
}

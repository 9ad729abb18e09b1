// A full disk (STYLE §6, excalidraw LocalData): when IndexedDB refuses a write for lack of space, we
// free what can be rebuilt (the persisted query cache, kept annotation sets) and try once more; if it
// still fails the caller gets StorageFullError with a sentence the user can act on.
import type { LocalDb } from './db';
import { dropKept } from './kept-sets';

export const STORAGE_FULL =
  'This device is out of storage space, so the change could not be saved here. Free some space and try again.';

export class StorageFullError extends Error {
  override name = 'StorageFullError';
  constructor() {
    super(STORAGE_FULL);
  }
}

/** True for IndexedDB's quota error, also when Dexie wraps it in an aborted transaction. */
export function isQuotaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === 'QuotaExceededError') return true;
    e = (e as { inner?: unknown }).inner;
  }
  return false;
}

/** Keys of `meta` that only hold caches and may be dropped to make room. */
export const DISPOSABLE_META = ['queryCache'];

export async function freeSpace(db: LocalDb): Promise<void> {
  await db.meta.bulkDelete(DISPOSABLE_META);
  await dropKept(db);
}

/** Runs a write; on a quota error frees disposable data and tries once more. */
export async function withQuotaRetry<T>(db: LocalDb, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    await freeSpace(db).catch(() => undefined);
    try {
      return await write();
    } catch (again) {
      if (isQuotaError(again)) throw new StorageFullError();
      throw again;
    }
  }
}

// Large read-only copies kept on the device as a head start (an image's annotation set: up to 10,000
// outlines as one JSON string), under `meta` keys that start with a prefix. They are caches: a full
// disk frees them (quota.ts), and each prefix keeps only its most recently written `limit` entries, so
// a reviewer who opens hundreds of slides does not fill the device with sets they will not reopen.
// Written without the quota retry (quota.ts drops these very sets to make room): a write that finds the
// disk full fails, and the caller goes without the head start.
import { localDb, type LocalDb } from './db';

/** Prefixes of `meta` keys that hold kept sets. */
export const KEPT_SET_PREFIXES = ['annotationSet:'] as const;
export type KeptSetPrefix = (typeof KEPT_SET_PREFIXES)[number];

/** Sets kept per prefix: the images a reviewer goes back and forth between in a session. */
export const KEPT_SETS_PER_PREFIX = 20;

/** The order keys were last written in, oldest first, kept under one small key per prefix. */
const orderKey = (prefix: KeptSetPrefix) => `keptOrder:${prefix}`;

async function readOrder(db: LocalDb, prefix: KeptSetPrefix): Promise<string[]> {
  const order = (await db.meta.get(orderKey(prefix)))?.value;
  return Array.isArray(order) ? order.filter((k): k is string => typeof k === 'string') : [];
}

/** Writes `key` (which starts with `prefix`) and drops the oldest sets beyond `limit`. */
export async function writeKept(
  prefix: KeptSetPrefix,
  key: string,
  value: unknown,
  { db = localDb(), limit = KEPT_SETS_PER_PREFIX }: { db?: LocalDb; limit?: number } = {},
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    await db.meta.put({ key, value });
    const order = [...(await readOrder(db, prefix)).filter((k) => k !== key), key];
    const dropped = order.splice(0, Math.max(0, order.length - limit));
    if (dropped.length) await db.meta.bulkDelete(dropped);
    await db.meta.put({ key: orderKey(prefix), value: order });
  });
}

/** Removes every kept set (a full disk: they are rebuilt from the server on the next read). */
export async function dropKept(db: LocalDb): Promise<void> {
  for (const prefix of KEPT_SET_PREFIXES) {
    await db.meta.where('key').startsWith(prefix).delete();
    await db.meta.delete(orderKey(prefix));
  }
}

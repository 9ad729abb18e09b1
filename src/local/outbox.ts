// The outbox: every mutation the app makes goes through here. It is applied to the
// mirror at once (the row shows as pending) and stored as an entry whose id is the request's
// Idempotency-Key; replay.ts sends the entries in order. Nothing is ever dropped by the code: an
// entry leaves the outbox only when the server accepted it or the user discards it.
import { z } from 'zod';
import type { SyncKind } from '../api/sync';
import { refsOf, type LocalDb, type MirrorRow, type OutboxEntry, type OutboxMethod } from './db';
import { movedKey, parseTarget, targetKey } from './effects';
import { kindSpec, type KindSpec } from './kinds';
import { baseOf, rebuildTarget } from './mirror';
import { withQuotaRetry } from './quota';

/** Kinds whose create accepts a client-made id (the row keeps its id); others map temporary ids. */
const CLIENT_ID_KINDS = new Set<SyncKind>();

/** Declares that POST for this kind takes `id` in its body object (set once the server supports it). */
export function acceptClientIds(kind: SyncKind, accept = true): void {
  if (accept) CLIENT_ID_KINDS.add(kind);
  else CLIENT_ID_KINDS.delete(kind);
}

export interface EnqueueRequest {
  method: OutboxMethod;
  path: string;
  body?: unknown;
  /** The mirrored row it changes (`targetKey(kind, id)`); derived from the path when absent. */
  target?: string;
  preview?: Record<string, unknown>;
  userId?: string;
}

const newId = () => globalThis.crypto.randomUUID();

/** Stores an entry and applies it to the mirror, in one transaction. Returns the stored entry. */
export async function enqueue(db: LocalDb, asked: EnqueueRequest): Promise<OutboxEntry> {
  const parsed = parseTarget(asked.target);
  const tables = parsed ? [db.outbox, db.meta, db.mirror(parsed.spec.table)] : [db.outbox];
  return withQuotaRetry(db, () =>
    db.transaction('rw', tables, async () => {
      // A page may still show a row under the temporary id the replay has just replaced: the change
      // goes to the row under its server id, or it would reach the server for an id it never knew.
      const { request, target } = await followMoved(db, asked, parsed);
      const last = await db.outbox.orderBy('seq').last();
      const current = target ? await db.mirror(target.spec.table).get(target.id) : undefined;
      const base = baseOf(current);
      const baseVersion = typeof base?.updatedAt === 'string' ? base.updatedAt : null;
      const entry: OutboxEntry = {
        id: newId(),
        seq: (last?.seq ?? 0) + 1,
        method: request.method,
        path: request.path,
        body:
          request.method === 'PATCH' && target
            ? withEditBase(request.body, target.spec, current, baseVersion)
            : request.body,
        baseVersion,
        createdAt: new Date().toISOString(),
        attempts: 0,
        state: 'pending',
      };
      if (request.target) entry.target = request.target;
      if (request.preview) entry.preview = request.preview;
      if (request.userId) entry.userId = request.userId;
      entry.refs = refsOf(entry);
      await db.outbox.add(entry);
      if (target) await rebuildTarget(db, target.spec.kind, target.id);
      return entry;
    }),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A PATCH of guarded fields goes with its base (src/api/edit-base.ts): the version of the server copy
 * the change is made on, and each changed field's value as shown here (this device's own pending edits
 * included, so that a second rename does not count as overwriting the first). The server then says
 * when the change replaced a value someone else saved after that copy.
 */
function withEditBase(
  body: unknown,
  spec: KindSpec,
  shown: MirrorRow | undefined,
  version: string | null,
): unknown {
  if (!version || !shown || !spec.guardedFields?.length || !isObject(body) || 'base' in body) return body;
  const inner = body[spec.entityKey];
  if (!isObject(inner)) return body;
  const replaced: Record<string, string | null> = {};
  for (const field of spec.guardedFields) {
    const value = shown[field];
    if (field in inner && (typeof value === 'string' || value === null)) replaced[field] = value;
  }
  if (Object.keys(replaced).length === 0) return body;
  return { ...body, base: { updatedAt: version, ...replaced } };
}

/** The request aimed at the row's server id when its temporary id has been replaced meanwhile. */
async function followMoved(
  db: LocalDb,
  request: EnqueueRequest,
  target: ReturnType<typeof parseTarget>,
): Promise<{ request: EnqueueRequest; target: ReturnType<typeof parseTarget> }> {
  if (!target || (await db.mirror(target.spec.table).get(target.id))) return { request, target };
  const moved = (await db.meta.get(movedKey(target.spec.kind, target.id)))?.value;
  if (typeof moved !== 'string' || moved === target.id) return { request, target };
  const swap = (text: string) => text.split(target.id).join(moved);
  return {
    request: {
      ...request,
      path: swap(request.path),
      body: request.body === undefined ? undefined : JSON.parse(swap(JSON.stringify(request.body))),
      target: targetKey(target.spec.kind, moved),
    },
    target: { ...target, id: moved },
  };
}

export interface SetChanges {
  /** Plain fields: the new value wins over the server's (only the fields the user changed). */
  set?: Record<string, unknown>;
  /** Set fields: values to add and to remove (tags, assigneeUserIds, scanGroupIds…). */
  add?: Record<string, string[]>;
  remove?: Record<string, string[]>;
}

const nonEmpty = (sets?: Record<string, string[]>) =>
  sets && Object.values(sets).some((v) => v.length > 0)
    ? Object.fromEntries(Object.entries(sets).filter(([, v]) => v.length > 0))
    : undefined;

/** Creates a row here and queues POST /v2/<kind> {<entity>:{...fields}}. Returns the local id. */
export async function createEntity(
  db: LocalDb,
  kind: SyncKind,
  fields: Record<string, unknown>,
  opts: { preview?: Record<string, unknown>; userId?: string } = {},
): Promise<{ id: string; entry: OutboxEntry }> {
  const spec = kindSpec(kind);
  const id = newId();
  const inner = CLIENT_ID_KINDS.has(kind) ? { id, ...fields } : fields;
  const entry = await enqueue(db, {
    method: 'POST',
    path: spec.path,
    body: { [spec.entityKey]: inner },
    target: targetKey(kind, id),
    preview: opts.preview,
    userId: opts.userId,
  });
  return { id, entry };
}

/** Changes a row here and queues PATCH /v2/<kind>/<id> {<entity>:{...set}, add, remove}. */
export async function updateEntity(
  db: LocalDb,
  kind: SyncKind,
  id: string,
  changes: SetChanges,
  opts: { userId?: string } = {},
): Promise<OutboxEntry> {
  const spec = kindSpec(kind);
  const add = nonEmpty(changes.add);
  const remove = nonEmpty(changes.remove);
  return enqueue(db, {
    method: 'PATCH',
    path: `${spec.path}/${encodeURIComponent(id)}`,
    body: { [spec.entityKey]: changes.set ?? {}, ...(add ? { add } : {}), ...(remove ? { remove } : {}) },
    target: targetKey(kind, id),
    userId: opts.userId,
  });
}

/** Removes a row here and queues DELETE /v2/<kind>/<id>. */
export async function deleteEntity(
  db: LocalDb,
  kind: SyncKind,
  id: string,
  opts: { userId?: string } = {},
): Promise<OutboxEntry> {
  const spec = kindSpec(kind);
  return enqueue(db, {
    method: 'DELETE',
    path: `${spec.path}/${encodeURIComponent(id)}`,
    target: targetKey(kind, id),
    userId: opts.userId,
  });
}

/** The shape an entry must have to be sent; anything else read back is shown as failed, never sent. */
export const StoredEntry = z.object({
  id: z.string().min(1),
  seq: z.number(),
  method: z.enum(['POST', 'PATCH', 'PUT', 'DELETE']),
  path: z.string().startsWith('/'),
  body: z.unknown().optional(),
  baseVersion: z.string().nullable().optional(),
  createdAt: z.string(),
  attempts: z.number().int().min(0),
  state: z.enum(['pending', 'failed']),
  target: z.string().optional(),
  preview: z.record(z.string(), z.unknown()).optional(),
  userId: z.string().optional(),
  error: z.string().optional(),
  status: z.number().optional(),
  nextAttemptAt: z.number().optional(),
  refs: z.array(z.string()).optional(),
});

export const DAMAGED_ENTRY = 'This change could not be read back on this device and was not sent';

/** Every entry in order, each checked; a damaged one is marked failed (kept, so the user can see it). */
export async function listEntries(db: LocalDb): Promise<OutboxEntry[]> {
  const raw = await db.outbox.orderBy('seq').toArray();
  const out: OutboxEntry[] = [];
  for (const entry of raw) {
    const ok = StoredEntry.safeParse(entry);
    if (ok.success) {
      out.push(entry);
      continue;
    }
    const id = typeof entry?.id === 'string' && entry.id ? entry.id : undefined;
    if (!id) continue; // without a key it cannot even be shown or discarded
    const repaired: OutboxEntry = {
      ...entry,
      id,
      seq: typeof entry.seq === 'number' ? entry.seq : Number.MAX_SAFE_INTEGER,
      method: (['POST', 'PATCH', 'PUT', 'DELETE'] as const).includes(entry.method) ? entry.method : 'POST',
      path: typeof entry.path === 'string' ? entry.path : '/',
      createdAt: typeof entry.createdAt === 'string' ? entry.createdAt : new Date(0).toISOString(),
      baseVersion: null,
      attempts: typeof entry.attempts === 'number' ? entry.attempts : 0,
      state: 'failed',
      error: DAMAGED_ENTRY,
    };
    await db.outbox.put(repaired);
    out.push(repaired);
  }
  return out;
}

/** Sends a failed entry again (in its original place in the order): its change shows again. */
export async function retryEntry(db: LocalDb, id: string): Promise<void> {
  await db.transaction('rw', [db.outbox, ...mirrorTablesOf(db)], async () => {
    const entry = await db.outbox.get(id);
    if (!entry || entry.error === DAMAGED_ENTRY) return;
    await db.outbox.put({
      ...entry,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: undefined,
      error: undefined,
    });
    const target = parseTarget(entry.target);
    if (target) await rebuildTarget(db, target.spec.kind, target.id);
  });
}

/** Forgets an entry at the user's request (its change, if still shown, is rolled back). */
export async function discardEntry(db: LocalDb, id: string): Promise<void> {
  await db.transaction('rw', [db.outbox, ...mirrorTablesOf(db)], async () => {
    const entry = await db.outbox.get(id);
    if (!entry) return;
    await db.outbox.delete(id);
    const target = parseTarget(entry.target);
    if (target) await rebuildTarget(db, target.spec.kind, target.id);
  });
}

export function mirrorTablesOf(db: LocalDb) {
  return db.tables.filter((t) => !['session', 'outbox', 'cursors', 'meta'].includes(t.name));
}

/**
 * Resolves when the entry has been settled: 'sent' once it left the outbox, 'failed' (with the
 * server's message) when refused; 'pending' if neither happened within `timeoutMs`.
 */
export async function whenSettled(
  db: LocalDb,
  id: string,
  timeoutMs: number,
): Promise<{ state: 'sent' } | { state: 'failed'; message: string } | { state: 'pending' }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const entry = await db.outbox.get(id);
    if (!entry) return { state: 'sent' };
    if (entry.state === 'failed') return { state: 'failed', message: entry.error ?? '' };
    if (Date.now() >= until) return { state: 'pending' };
    await new Promise((r) => setTimeout(r, 50));
  }
}

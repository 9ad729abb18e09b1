// What happens when bytes are complete: a part is marked complete; when it was the group's last, the
// group is checked (an .mrxs needs its data files), its files move to images/<imageId>/…, the Image is
// created (status created) and its 'process-image' job enqueued. Each step can be run again after a
// crash: the image id is reserved first, moves are idempotent, the image is created once.
// Also: cancelling and expiring groups, which free their bytes.
import crypto from 'node:crypto';
import path from 'node:path';
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { slideFileRole } from '../../api/slide-formats';
import { errorText } from '../../api/errors';
import type { Db } from '../db/client';
import { uploadGroups, uploads } from '../db/schema';
import { PROCESS_IMAGE } from '../jobs/kinds';
import { enqueue } from '../jobs/queue';
import type { FileStorage } from '../storage';
import { createImageRecord } from './image-records';
import { findGroup, partsOf, setGroupStatus, setPartsStatus, type UploadRow } from './repository';

export interface UploadDeps {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  /** Wakes the in-process job worker after an enqueue. */
  nudge(): void;
}

interface Placement {
  partId: string;
  key: string;
}

/**
 * Where each part of a complete group goes, or why the group is not a slide. A single file keeps its
 * name; an .mrxs keeps its name and its data files go to the folder named like it (what the MIRAX
 * reader and the processing job expect): images/<id>/slide.mrxs + images/<id>/slide/Slidedat.ini…
 */
export function layoutGroup(
  imageId: string,
  parts: Pick<UploadRow, 'id' | 'fileName'>[],
): { main: string; files: Placement[] } | { error: string } {
  const dir = `images/${imageId}`;
  if (parts.length === 1) {
    const [p] = parts;
    if (slideFileRole(p.fileName) !== 'single') return { error: errorText('MRXS_NEEDS_FOLDER') };
    return { main: `${dir}/${p.fileName}`, files: [{ partId: p.id, key: `${dir}/${p.fileName}` }] };
  }
  const mains = parts.filter((p) => slideFileRole(p.fileName) === 'folderMain');
  const data = parts.filter((p) => slideFileRole(p.fileName) === 'folderData');
  if (mains.length !== 1 || mains.length + data.length !== parts.length)
    return { error: errorText('MRXS_NEEDS_FOLDER') };
  const names = new Set(data.map((p) => p.fileName.toLowerCase()));
  if (names.size !== data.length) return { error: errorText('DUPLICATE_PART') };
  if (!names.has('slidedat.ini')) return { error: errorText('MRXS_MISSING_DATA', { what: 'Slidedat.ini' }) };
  if (![...names].some((n) => n.endsWith('.dat')))
    return { error: errorText('MRXS_MISSING_DATA', { what: '.dat files' }) };
  const main = mains[0];
  const base = path.basename(main.fileName, path.extname(main.fileName));
  // The data folder is named like the .mrxs: a name of dots only would be no folder (or its parent).
  if (!/[^.]/.test(base)) return { error: errorText('MRXS_NEEDS_FOLDER') };
  return {
    main: `${dir}/${main.fileName}`,
    files: [
      { partId: main.id, key: `${dir}/${main.fileName}` },
      ...data.map((p) => ({ partId: p.id, key: `${dir}/${base}/${p.fileName}` })),
    ],
  };
}

/** Marks a part whose bytes are all in as complete, and assembles its group if it was the last. */
export async function finishPart(deps: UploadDeps, partId: string): Promise<void> {
  const [part] = await deps.db
    .update(uploads)
    .set({ status: 'complete', completedAt: new Date() })
    .where(and(eq(uploads.id, partId), eq(uploads.status, 'uploading')))
    .returning();
  const groupId =
    part?.groupId ?? (await deps.db.select().from(uploads).where(eq(uploads.id, partId)))[0]?.groupId;
  if (groupId) await assembleGroup(deps, groupId);
}

export async function assembleGroup(deps: UploadDeps, groupId: string): Promise<void> {
  const { db, storage } = deps;
  const plan = await db.transaction(async (tx) => {
    const group = await findGroup(tx, groupId, true);
    if (!group || group.status !== 'uploading') return undefined;
    const parts = await partsOf(tx, groupId);
    if (parts.length < group.fileCount || parts.some((p) => p.status !== 'complete')) return undefined;
    const imageId = group.imageId ?? crypto.randomUUID();
    const layout = layoutGroup(imageId, parts);
    if ('error' in layout) {
      await setGroupStatus(tx, groupId, 'failed', { error: layout.error });
      return { parts, failed: true as const };
    }
    if (!group.imageId) await tx.update(uploadGroups).set({ imageId }).where(eq(uploadGroups.id, groupId));
    return { group, parts, imageId, layout, failed: false as const };
  });
  if (!plan) return;
  if (plan.failed) {
    for (const p of plan.parts) await storage.removeUpload(p.id);
    return;
  }
  for (const f of plan.layout.files) await storage.adoptUpload(f.partId, f.key);
  const size = plan.parts.reduce((n, p) => n + p.size, 0);
  const created = await db.transaction(async (tx) => {
    const group = await findGroup(tx, groupId, true);
    if (!group || group.status !== 'uploading') return false;
    const main = plan.parts.find((p) => plan.layout.main.endsWith(`/${p.fileName}`)) ?? plan.parts[0];
    await createImageRecord(tx, {
      id: plan.imageId,
      name: main.fileName,
      organizationId: group.organizationId,
      creatorUserId: group.creatorUserId,
      status: 'created',
      imageType: 'real',
      info: {
        uploadStart: group.createdAt.toISOString(),
        uploadEnd: new Date().toISOString(),
        size,
      },
      storageKey: plan.layout.main,
      fileSize: size,
      uploadGroupId: groupId,
    });
    await setGroupStatus(tx, groupId, 'complete');
    await enqueue(tx, PROCESS_IMAGE, { imageId: plan.imageId });
    return true;
  });
  if (created) {
    deps.log.info({ groupId, imageId: plan.imageId, size }, 'upload complete');
    deps.nudge();
  }
}

/**
 * Cancels a group that is still uploading (Cancel Upload, §2.6): every part's bytes are removed,
 * finished ones too. Returns false when the group had already finished.
 */
export async function cancelGroup(deps: UploadDeps, groupId: string): Promise<boolean> {
  const parts = await deps.db.transaction(async (tx) => {
    const group = await findGroup(tx, groupId, true);
    if (!group) return [];
    if (group.status === 'complete') return undefined;
    if (group.status === 'uploading') await setGroupStatus(tx, groupId, 'canceled');
    await setPartsStatus(tx, groupId, ['uploading', 'complete'], 'canceled');
    return partsOf(tx, groupId);
  });
  if (!parts) return false;
  for (const p of parts) await deps.storage.removeUpload(p.id);
  return true;
}

/**
 * Frees the bytes of abandoned uploads: groups still uploading whose parts' time ran out (tus
 * expiration), and groups that began more than `expiryMs` ago and never got all of their files.
 * Returns how many groups expired.
 */
export async function expireUploads(deps: UploadDeps, expiryMs: number, now = new Date()): Promise<number> {
  if (expiryMs <= 0) return 0;
  const { db } = deps;
  const lapsedParts = await db
    .select({ groupId: uploads.groupId })
    .from(uploads)
    .where(and(eq(uploads.status, 'uploading'), lt(uploads.expiresAt, now)));
  const oldGroups = await db
    .select({ id: uploadGroups.id })
    .from(uploadGroups)
    .where(
      and(
        eq(uploadGroups.status, 'uploading'),
        lt(uploadGroups.createdAt, new Date(now.getTime() - expiryMs)),
      ),
    );
  const ids = [...new Set([...lapsedParts.map((p) => p.groupId), ...oldGroups.map((g) => g.id)])];
  let expired = 0;
  for (const id of ids) {
    const parts = await db.transaction(async (tx) => {
      const group = await findGroup(tx, id, true);
      if (!group || group.status !== 'uploading') return undefined;
      await setGroupStatus(tx, id, 'expired', { error: 'The upload expired before it was complete' });
      await setPartsStatus(tx, id, ['uploading', 'complete'], 'expired');
      return partsOf(tx, id);
    });
    if (!parts) continue;
    expired++;
    for (const p of parts) await deps.storage.removeUpload(p.id);
  }
  // Parts whose group ended otherwise but whose bytes a crash left behind.
  const leftovers = await db
    .select({ id: uploads.id })
    .from(uploads)
    .innerJoin(uploadGroups, eq(uploadGroups.id, uploads.groupId))
    .where(and(inArray(uploadGroups.status, ['canceled', 'failed']), lt(uploads.expiresAt, now)));
  for (const p of leftovers) await deps.storage.removeUpload(p.id);
  return expired;
}

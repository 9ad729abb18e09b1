// Upload records and the copies of their files: a picked file is copied into the origin's
// storage — the origin-private file system, else an IndexedDB blob — so that an upload resumes after
// a reload or a browser restart without the user picking it again. Where the browser refuses the
// space, nothing is kept and the row asks for the same file again, checked by its fingerprint.
// Records read back are repaired before use (STYLE §6).
import { liveQuery } from 'dexie';
import { UploadStatuses, type UploadStatus } from '../api/uploads';
import { isQuotaError } from './quota';
import {
  uploadsDb,
  type KeptIn,
  type UploadPartRecord,
  type UploadRecord,
  type UploadsDb,
} from './uploads-db';

export type { KeptIn, UploadPartRecord, UploadRecord } from './uploads-db';

const MiB = 1024 * 1024;
/** Room left beside a copy, so that keeping a slide never fills the disk for the rest of the app. */
const HEADROOM = 200 * MiB;

// ------------------------------------------------------------------ records

/** A record as stored, or undefined when it is damaged beyond use. */
export function repairRecord(raw: unknown): UploadRecord | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Partial<UploadRecord>;
  if (typeof r.id !== 'string' || typeof r.userId !== 'string' || !Array.isArray(r.parts)) return undefined;
  const parts = r.parts.filter(
    (p): p is UploadPartRecord => !!p && typeof p.relativePath === 'string' && typeof p.size === 'number',
  );
  if (parts.length === 0) return undefined;
  const size = parts.reduce((n, p) => n + p.size, 0);
  const status: UploadStatus = (UploadStatuses as readonly string[]).includes(r.status as string)
    ? (r.status as UploadStatus)
    : 'upload_error';
  const transferred = Math.min(size, Math.max(0, Number(r.transferred) || 0));
  return {
    id: r.id,
    userId: r.userId,
    name: typeof r.name === 'string' ? r.name : parts[0].name,
    size,
    transferred,
    progress: size ? transferred / size : 0,
    status,
    error: typeof r.error === 'string' ? r.error : null,
    scanGroupId: typeof r.scanGroupId === 'string' ? r.scanGroupId : null,
    imageId: typeof r.imageId === 'string' ? r.imageId : null,
    labelUrl: typeof r.labelUrl === 'string' ? r.labelUrl : null,
    parts: parts.map((p) => ({
      ...p,
      offset: Math.min(p.size, Math.max(0, Number(p.offset) || 0)),
      done: !!p.done,
      kept: (['opfs', 'idb', 'none', 'pending'] as const).includes(p.kept) ? p.kept : 'none',
    })),
    needsFile: !!r.needsFile,
    cancelPending: !!r.cancelPending,
    createdAt: typeof r.createdAt === 'string' ? r.createdAt : new Date(0).toISOString(),
    updatedAt: typeof r.updatedAt === 'string' ? r.updatedAt : new Date(0).toISOString(),
  };
}

export async function putRecord(record: UploadRecord, db: UploadsDb = uploadsDb()): Promise<void> {
  await db.records.put(record);
}

/** Applies `change` to the stored record (in one transaction); returns the new record. */
export async function updateRecord(
  id: string,
  change: (r: UploadRecord) => Partial<UploadRecord>,
  db: UploadsDb = uploadsDb(),
): Promise<UploadRecord | undefined> {
  return db.transaction('rw', db.records, async () => {
    const current = repairRecord(await db.records.get(id));
    if (!current) return undefined;
    const next = { ...current, ...change(current), updatedAt: new Date().toISOString() };
    await db.records.put(next);
    return next;
  });
}

export async function getRecord(id: string, db: UploadsDb = uploadsDb()): Promise<UploadRecord | undefined> {
  return repairRecord(await db.records.get(id));
}

/** A user's records, newest first. */
export async function listRecords(userId: string, db: UploadsDb = uploadsDb()): Promise<UploadRecord[]> {
  const rows = await db.records.where('userId').equals(userId).toArray();
  return rows
    .map(repairRecord)
    .filter((r): r is UploadRecord => !!r)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Calls `onChange` with the user's records now and after every change (in any tab or worker). */
export function watchRecords(
  userId: string,
  onChange: (records: UploadRecord[]) => void,
  db: UploadsDb = uploadsDb(),
): () => void {
  const sub = liveQuery(() => listRecords(userId, db)).subscribe({ next: onChange, error: () => undefined });
  return () => sub.unsubscribe();
}

export async function deleteRecord(id: string, db: UploadsDb = uploadsDb()): Promise<void> {
  await dropKept(id, db);
  await db.records.delete(id);
}

// ------------------------------------------------------------------ fingerprints

const hex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * SHA-256 over the file's name, size, modification time and its first and last MiB: cheap for a
 * file of gigabytes, and a different file with the same name and size is still told apart.
 */
export async function fingerprintFile(file: File): Promise<string> {
  const head = await file.slice(0, MiB).arrayBuffer();
  const tail =
    file.size > MiB ? await file.slice(Math.max(MiB, file.size - MiB)).arrayBuffer() : new ArrayBuffer(0);
  const meta = new TextEncoder().encode(`${file.name}\n${file.size}\n${file.lastModified}\n`);
  const all = new Uint8Array(meta.length + head.byteLength + tail.byteLength);
  all.set(meta, 0);
  all.set(new Uint8Array(head), meta.length);
  all.set(new Uint8Array(tail), meta.length + head.byteLength);
  return hex(await crypto.subtle.digest('SHA-256', all));
}

// ------------------------------------------------------------------ kept copies

const opfsName = (relativePath: string) => encodeURIComponent(relativePath);

async function opfsDir(recordId: string, create: boolean): Promise<FileSystemDirectoryHandle | undefined> {
  if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) return undefined;
  try {
    const root = await navigator.storage.getDirectory();
    const uploads = await root.getDirectoryHandle('uploads', { create });
    return await uploads.getDirectoryHandle(recordId, { create });
  } catch {
    return undefined;
  }
}

/** Whether the origin may take `bytes` more (the browser's own estimate; unknown counts as yes). */
const storageManager = (): StorageManager | undefined =>
  typeof navigator === 'undefined' ? undefined : navigator.storage;

async function roomFor(bytes: number): Promise<boolean> {
  const estimate = await storageManager()
    ?.estimate?.()
    .catch(() => undefined);
  if (!estimate?.quota) return true;
  return estimate.quota - (estimate.usage ?? 0) >= bytes + HEADROOM;
}

/**
 * Copies a picked file into the origin's storage: OPFS first, else an IndexedDB blob. Returns where
 * it went, or 'none' when the browser refused the space (the row will ask for the file again).
 */
export async function keepFile(
  recordId: string,
  relativePath: string,
  file: Blob,
  db: UploadsDb = uploadsDb(),
): Promise<KeptIn> {
  if (!(await roomFor(file.size))) return 'none';
  // Ask the browser not to evict what we keep; it may say no, and the copy is still worth having.
  await storageManager()
    ?.persist?.()
    .catch(() => false);
  const dir = await opfsDir(recordId, true);
  if (dir) {
    const name = opfsName(relativePath);
    try {
      const handle = await dir.getFileHandle(name, { create: true });
      const writable = await handle.createWritable();
      try {
        // The Blob itself, not its stream: the browser copies the file into OPFS on its side, where
        // piping the stream through this thread cost as much CPU as the upload (bench/README.md).
        await writable.write(file);
        await writable.close();
      } catch (error) {
        await writable.abort().catch(() => undefined);
        throw error;
      }
      return 'opfs';
    } catch {
      await dir.removeEntry(name).catch(() => undefined);
    }
  }
  try {
    await db.blobs.put({ key: `${recordId}/${relativePath}`, recordId, blob: file });
    return 'idb';
  } catch (error) {
    if (!isQuotaError(error)) console.warn('uploads: could not keep a copy of the file', error);
    return 'none';
  }
}

/** The kept copy of a part, or undefined when there is none (or it is not whole). */
export async function readKept(
  recordId: string,
  part: Pick<UploadPartRecord, 'relativePath' | 'size' | 'kept'>,
  db: UploadsDb = uploadsDb(),
): Promise<Blob | undefined> {
  let blob: Blob | undefined;
  if (part.kept === 'opfs') {
    const dir = await opfsDir(recordId, false);
    blob = await dir
      ?.getFileHandle(opfsName(part.relativePath))
      .then((h) => h.getFile())
      .catch(() => undefined);
  } else if (part.kept === 'idb') {
    blob = (await db.blobs.get(`${recordId}/${part.relativePath}`))?.blob;
  }
  return blob && blob.size === part.size ? blob : undefined;
}

/** Removes every kept copy of a record (after it is done or canceled). */
export async function dropKept(recordId: string, db: UploadsDb = uploadsDb()): Promise<void> {
  await db.blobs.where('recordId').equals(recordId).delete();
  if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) return;
  try {
    const root = await navigator.storage.getDirectory();
    const uploads = await root.getDirectoryHandle('uploads');
    await uploads.removeEntry(recordId, { recursive: true });
  } catch {
    // nothing kept there
  }
}

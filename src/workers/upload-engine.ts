// The upload engine (shared logic of the upload worker, STYLE §7): sends every part of every upload
// with tus — adaptive chunks of 8–64 MiB, one request at a time per file, up to 3 files at once, a
// SHA-1 per chunk — and keeps the upload records in the local store. A dropped connection pauses the
// file and resumes from the server's offset (a chunk is all or nothing on the server, so at most one
// is sent again); after a reload or a browser restart the records and kept copies resume it without
// the user. Finished uploads are followed on the server every 2.5 s until processing says how they
// ended (§4.3, §9). Runs in a Web Worker, or on the page where workers are missing.
import { Upload, type DetailedError } from 'tus-js-client';
import {
  CHUNK_MIN_BYTES,
  isAwaitingServer,
  isClearable,
  isSending,
  nextChunkSize,
  PARALLEL_FILES,
  pushSample,
  speedOf,
  statusFromGroup,
  UPLOAD_PATH,
  UPLOAD_POLL_MS,
  UploadOwnText,
  type SpeedSample,
  type UploadGroup,
  type UploadStatus,
} from '../api/uploads';
import {
  deleteRecord,
  dropKept,
  fingerprintFile,
  getRecord,
  keepFile,
  listRecords,
  putRecord,
  readKept,
  type UploadPartRecord,
  type UploadRecord,
} from '../local/uploads';
import { uploadsDb, type UploadsDb } from '../local/uploads-db';
import { ChecksumHttpStack } from './checksum-stack';
import { partPath, planUploads } from './plan';
import { messageOf, tryLock } from './engine-util';

export interface PickedFile {
  file: File;
  /** Path inside a dropped folder; the file name for a picked file. */
  relativePath: string;
}

/** A record as the page shows it: the stored one plus live numbers. */
export interface UploadView extends UploadRecord {
  /** bytes/s over the last 6 samples; undefined while estimating or not sending */
  speed?: number;
  /** Bytes put on the wire for this upload since this engine started it, resends included. */
  sentBytes: number;
  /** This engine is sending it now. */
  sending: boolean;
}

export type UploadEvent = { type: 'success' | 'labelUnreadable'; id: string; name: string };

export interface EngineHost {
  /** Every record of the user, newest first (called at most a few times a second). */
  onChange(views: UploadView[]): void;
  /** Transitions that deserve a toast (§4.3). */
  onEvent(event: UploadEvent): void;
  /** Refreshes the session cookie after a 401; true when it worked. */
  refreshSession(): Promise<boolean>;
}

export interface EngineOptions {
  /** Keep copies of picked files in the origin's storage; false behaves as a browser that refuses. */
  keepFiles: boolean;
  /** '' for the page's own origin. */
  origin?: string;
}

interface Live {
  samples: SpeedSample[];
  sent: number;
  /** Bytes confirmed or in flight per part being sent. */
  partBytes: Map<string, number>;
}

/**
 * The page hears of progress at most this often: each change redraws the uploader, and at 150 ms the
 * drawing cost the page more CPU than hashing the bytes (bench/README.md, uploads).
 */
const EMIT_MS = 300;

const keyOf = (recordId: string, relativePath: string) => `${recordId}/${relativePath}`;
const now = () => new Date().toISOString();

export class UploadEngine {
  private userId: string | undefined;
  private readonly records = new Map<string, UploadRecord>();
  private readonly blobs = new Map<string, Blob>();
  private readonly live = new Map<string, Live>();
  private readonly running = new Map<string, Upload>();
  private readonly waitUntil = new Map<string, number>();
  private readonly failures = new Map<string, number>();
  private readonly chunkSizes = new Map<string, number>();
  private readonly locks = new Map<string, () => void>();
  /** When each record was added here (a counter): a reload that listed the store earlier keeps it. */
  private readonly addedAt = new Map<string, number>();
  private adds = 0;
  private timers: Array<ReturnType<typeof setInterval>> = [];
  private emitTimer: ReturnType<typeof setTimeout> | undefined;
  private keeping: Promise<void> = Promise.resolve();
  private polling = false;
  private stopped = true;

  constructor(
    private readonly host: EngineHost,
    private readonly opts: EngineOptions,
    private readonly db: UploadsDb = uploadsDb(),
  ) {}

  private get origin(): string {
    return this.opts.origin ?? '';
  }

  /** Loads the user's records and resumes what was being sent. Another user's engine stops first. */
  async start(userId: string): Promise<void> {
    if (this.userId === userId && !this.stopped) return;
    this.stop();
    this.userId = userId;
    this.stopped = false;
    await this.reload();
    this.timers.push(setInterval(() => void this.pollServer(), UPLOAD_POLL_MS));
    this.timers.push(setInterval(() => this.sample(), 1000));
    // Records of a tab that closed (its lock is gone) are taken over here.
    this.timers.push(setInterval(() => void this.reload(), 10_000));
    void this.pollServer();
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const up of this.running.values()) void up.abort(false).catch(() => undefined);
    this.running.clear();
    for (const release of [...this.locks.values()]) release();
    this.records.clear();
    this.blobs.clear();
    this.live.clear();
    this.waitUntil.clear();
  }

  /** Plans uploads from picked or dropped files and starts them; returns the new records' ids. */
  async add(files: PickedFile[]): Promise<string[]> {
    const userId = this.userId;
    if (!userId || this.stopped) throw new Error('uploads: the engine is not started');
    const entries = files.map((f) => ({
      name: f.file.name,
      size: f.file.size,
      relativePath: f.relativePath || f.file.name,
      file: f.file,
    }));
    const ids: string[] = [];
    for (const plan of planUploads(entries)) {
      const id = crypto.randomUUID();
      this.addedAt.set(id, ++this.adds);
      const parts: UploadPartRecord[] = [];
      for (const p of plan.parts)
        parts.push({
          relativePath: partPath(plan, p),
          name: p.name,
          size: p.size,
          lastModified: p.file.lastModified,
          fingerprint: await fingerprintFile(p.file),
          offset: 0,
          done: false,
          kept: 'pending',
        });
      const size = parts.reduce((n, p) => n + p.size, 0);
      const record: UploadRecord = {
        id,
        userId,
        name: plan.name,
        size,
        transferred: 0,
        progress: 0,
        status: plan.refused ? 'read_error' : 'waiting',
        error: plan.refused ?? null,
        scanGroupId: null,
        imageId: null,
        labelUrl: null,
        parts,
        createdAt: now(),
        updatedAt: now(),
      };
      if (!plan.refused)
        plan.parts.forEach((p, i) => this.blobs.set(keyOf(id, parts[i].relativePath), p.file));
      this.records.set(id, record);
      await putRecord(record, this.db);
      ids.push(id);
      if (!plan.refused) {
        await tryLock(id, this.locks);
        this.keepCopies(id);
      }
    }
    this.emit();
    this.pump();
    return ids;
  }

  /** Cancel Upload (§2.6): stops sending, deletes the server's bytes, forgets the kept copies. */
  async cancel(id: string): Promise<void> {
    const rec = this.records.get(id) ?? (await getRecord(id, this.db));
    if (!rec) return;
    for (const part of rec.parts) {
      const key = keyOf(id, part.relativePath);
      const up = this.running.get(key);
      this.running.delete(key);
      await up?.abort(false).catch(() => undefined);
      this.blobs.delete(key);
    }
    const told = await this.deleteOnServer(rec);
    if (told === 'finished') {
      await this.refresh(id);
      return;
    }
    await this.save(rec, {
      status: 'aborted',
      error: null,
      needsFile: false,
      cancelPending: told === 'offline',
    });
    this.locks.get(id)?.();
    await dropKept(id, this.db);
    this.pump();
  }

  /**
   * Clears finished, canceled and failed rows from the list (their records and any kept copies);
   * rows still under way are left as they are. Returns the ids cleared.
   */
  async clear(ids: string[]): Promise<string[]> {
    const cleared: string[] = [];
    for (const id of ids) {
      const rec = this.records.get(id);
      if (!rec || !isClearable(rec)) continue;
      this.records.delete(id);
      this.addedAt.delete(id);
      this.live.delete(id);
      this.locks.get(id)?.();
      await deleteRecord(id, this.db);
      cleared.push(id);
    }
    if (cleared.length) this.emit();
    return cleared;
  }

  /** The user chose the file(s) again (the browser had kept no copy): checked by fingerprint. */
  async provideFiles(id: string, files: File[]): Promise<string | undefined> {
    const rec = this.records.get(id);
    if (!rec) return UploadOwnText.wrongFile;
    for (const part of rec.parts.filter((p) => !p.done)) {
      const candidates = files.filter((f) => f.name === part.name && f.size === part.size);
      let match: File | undefined;
      for (const f of candidates) if ((await fingerprintFile(f)) === part.fingerprint) match = f;
      if (!match) return UploadOwnText.wrongFile;
      this.blobs.set(keyOf(id, part.relativePath), match);
    }
    await this.save(rec, { needsFile: false, error: null });
    await tryLock(id, this.locks);
    this.keepCopies(id);
    this.pump();
    return undefined;
  }

  /** Asks the server about one upload now (after a label was applied, for instance). */
  async refresh(id: string): Promise<void> {
    const rec = this.records.get(id);
    const group = rec && (await this.fetchGroup(id));
    if (rec && group) await this.applyGroup(rec, group);
  }

  /** The network is back (or the page was focused): retry paused files now. */
  wake(): void {
    this.waitUntil.clear();
    this.pump();
    void this.pollServer();
  }

  // ------------------------------------------------------------------ sending

  private pump(): void {
    if (this.stopped) return;
    const t = Date.now();
    const queue = [...this.records.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const rec of queue) {
      if (!isSending(rec.status) || rec.needsFile || !this.locks.has(rec.id)) continue;
      for (const part of rec.parts) {
        if (this.running.size >= PARALLEL_FILES) return;
        const key = keyOf(rec.id, part.relativePath);
        const blob = this.blobs.get(key);
        if (part.done || !blob || this.running.has(key) || (this.waitUntil.get(key) ?? 0) > t) continue;
        this.send(rec, part, blob);
      }
    }
  }

  private send(rec: UploadRecord, part: UploadPartRecord, blob: Blob): void {
    const key = keyOf(rec.id, part.relativePath);
    const multi = rec.parts.length > 1;
    const uploading: UploadStatus = multi ? 'waiting_for_multipart_upload' : 'waiting_for_upload';
    if (!part.tusUrl && rec.status === 'waiting')
      void this.save(rec, {
        status: multi ? 'waiting_for_multipart_upload_metadata' : 'waiting_for_upload_metadata',
      });
    let chunkStarted = 0;
    const upload: Upload = new Upload(blob, {
      endpoint: `${this.origin}${UPLOAD_PATH}`,
      uploadUrl: part.tusUrl ? `${this.origin}${part.tusUrl}` : null,
      chunkSize: this.chunkSizes.get(rec.id) ?? CHUNK_MIN_BYTES,
      // Retries are ours (pause while offline, back off on server errors), not tus-js-client's.
      retryDelays: null,
      storeFingerprintForResuming: false,
      metadata: {
        filename: part.name,
        groupId: rec.id,
        groupSize: String(rec.parts.length),
        ...(multi ? { relativePath: part.relativePath } : {}),
      },
      httpStack: new ChecksumHttpStack(
        (n) => (this.liveOf(rec.id).sent += n),
        blob,
        () => upload.options.chunkSize ?? CHUNK_MIN_BYTES,
      ),
      onUploadUrlAvailable: () => {
        const url = upload.url ? new URL(upload.url, 'http://x').pathname : undefined;
        if (url && url !== part.tusUrl) void this.savePart(rec.id, part.relativePath, { tusUrl: url });
        const current = this.records.get(rec.id);
        if (current && current.status !== uploading && isSending(current.status))
          void this.save(current, { status: uploading });
      },
      onBeforeRequest: (req) => {
        if (req.getMethod() === 'PATCH') chunkStarted = performance.now();
      },
      onProgress: (sent) => this.progress(rec.id, part.relativePath, sent),
      onChunkComplete: (chunk, accepted) => {
        const seconds = (performance.now() - chunkStarted) / 1000;
        if (seconds > 0 && chunk > 0) {
          upload.options.chunkSize = nextChunkSize(chunk / seconds);
          this.chunkSizes.set(rec.id, upload.options.chunkSize);
        }
        this.failures.delete(key);
        void this.savePart(rec.id, part.relativePath, { offset: accepted }, { error: null });
      },
      onSuccess: () => {
        if (this.running.get(key) !== upload) return;
        this.running.delete(key);
        void this.partDone(rec.id, part.relativePath);
      },
      onError: (err) => {
        if (this.running.get(key) !== upload) return;
        this.running.delete(key);
        void this.partFailed(rec.id, part.relativePath, err);
      },
    });
    this.running.set(key, upload);
    upload.start();
  }

  private progress(id: string, relativePath: string, sent: number): void {
    const rec = this.records.get(id);
    if (!rec) return;
    const live = this.liveOf(id);
    live.partBytes.set(relativePath, sent);
    const transferred = rec.parts.reduce(
      (n, p) => n + (p.done ? p.size : (live.partBytes.get(p.relativePath) ?? p.offset)),
      0,
    );
    rec.transferred = Math.min(rec.size, transferred);
    rec.progress = rec.size ? rec.transferred / rec.size : 0;
    this.emit();
  }

  private async partDone(id: string, relativePath: string): Promise<void> {
    this.failures.delete(keyOf(id, relativePath));
    const rec = await this.savePart(id, relativePath, { done: true });
    if (!rec) return;
    if (rec.parts.every((p) => p.done)) {
      await this.save(rec, { status: 'waiting_for_stamp', error: null, transferred: rec.size, progress: 1 });
      this.locks.get(id)?.();
      setTimeout(() => void this.refresh(id), 200);
    }
    this.pump();
  }

  private async partFailed(id: string, relativePath: string, err: Error | DetailedError): Promise<void> {
    const rec = this.records.get(id);
    if (!rec || this.stopped || !isSending(rec.status)) return;
    const key = keyOf(id, relativePath);
    const detailed = err as DetailedError;
    const status = detailed.originalResponse?.getStatus() ?? 0;
    const method = detailed.originalRequest?.getMethod();
    const message = messageOf(detailed.originalResponse?.getBody());
    const multi = rec.parts.length > 1;

    if (method === 'POST' && status === 409 && message === UploadOwnText.duplicatePart) {
      // The creation went through but its answer was lost: adopt the resource the server has.
      const part = (await this.fetchGroup(id))?.parts.find((p) => p.relativePath === relativePath);
      if (part) await this.savePart(id, relativePath, { tusUrl: `${UPLOAD_PATH}/${part.id}` });
      return this.retryLater(key, 0);
    }
    if (method === 'POST' && status === 409) {
      // The group was canceled or expired elsewhere, or is not ours: creating again would not help.
      const next = await this.fetchGroup(id).then((g) => g && statusFromGroup(g));
      const fallback = multi ? 'multipart_upload_metadata_error' : 'upload_metadata_error';
      return this.stopRecord(rec, next?.status ?? fallback, next?.error ?? message);
    }
    const transient = status === 0 || status >= 500 || [401, 409, 423, 429, 460].includes(status);
    if (transient) {
      if (status === 401) await this.host.refreshSession().catch(() => false);
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      const wait = status === 460 || status === 409 ? 0 : Math.min(15_000, 1000 * 2 ** Math.min(n - 1, 4));
      const error = status === 0 ? UploadOwnText.paused : status === 507 ? UploadOwnText.storageFull : null;
      if (rec.error !== error) await this.save(rec, { error });
      return this.retryLater(key, wait);
    }
    if (status === 404 || status === 410) {
      const group = await this.fetchGroup(id);
      const next = group && statusFromGroup(group);
      await this.stopRecord(
        rec,
        next?.status ?? (multi ? 'multipart_upload_error' : 'upload_error'),
        next?.error ?? message,
      );
      return;
    }
    if (method === 'POST' && (status === 415 || status === 413 || status === 400))
      return this.stopRecord(rec, 'read_error', message);
    if (method === 'POST')
      return this.stopRecord(
        rec,
        multi ? 'multipart_upload_metadata_error' : 'upload_metadata_error',
        message,
      );
    return this.stopRecord(rec, multi ? 'multipart_upload_error' : 'upload_error', message);
  }

  private retryLater(key: string, ms: number): void {
    this.waitUntil.set(key, Date.now() + ms);
    setTimeout(() => this.pump(), ms + 10);
  }

  /** Ends a record that cannot go on: its other parts stop, its copies go. */
  private async stopRecord(rec: UploadRecord, status: UploadStatus, error: string | null): Promise<void> {
    for (const p of rec.parts) {
      const key = keyOf(rec.id, p.relativePath);
      const up = this.running.get(key);
      this.running.delete(key);
      await up?.abort(false).catch(() => undefined);
      this.blobs.delete(key);
    }
    await this.save(rec, { status, error });
    this.locks.get(rec.id)?.();
    await dropKept(rec.id, this.db);
    this.pump();
  }

  /** 'ok', 'finished' (too late: the upload is complete), or 'offline' (to be sent again later). */
  private async deleteOnServer(rec: UploadRecord): Promise<'ok' | 'finished' | 'offline'> {
    const url = rec.parts.find((p) => p.tusUrl)?.tusUrl;
    if (!url) return 'ok';
    try {
      const res = await fetch(`${this.origin}${url}`, {
        method: 'DELETE',
        credentials: 'same-origin',
        headers: { 'Tus-Resumable': '1.0.0' },
      });
      if (res.status === 409) return 'finished';
      return res.status >= 500 ? 'offline' : 'ok';
    } catch {
      return 'offline';
    }
  }

  // ------------------------------------------------------------------ the server's view

  private async fetchGroup(id: string): Promise<UploadGroup | undefined> {
    try {
      let res = await fetch(`${this.origin}/v2/upload-groups/${id}`, { credentials: 'same-origin' });
      if (res.status === 401 && (await this.host.refreshSession().catch(() => false)))
        res = await fetch(`${this.origin}/v2/upload-groups/${id}`, { credentials: 'same-origin' });
      if (!res.ok) return undefined;
      return ((await res.json()) as { result: UploadGroup }).result;
    } catch {
      return undefined;
    }
  }

  private async applyGroup(rec: UploadRecord, group: UploadGroup): Promise<void> {
    const next = statusFromGroup(group);
    if (!next) return;
    const scanGroupId = group.image?.scanGroupId ?? null;
    const imageId = group.image?.id ?? null;
    if (next.status === rec.status && next.error === rec.error && scanGroupId === rec.scanGroupId) return;
    const before = rec.status;
    await this.save(rec, { status: next.status, error: next.error, scanGroupId, imageId });
    if (next.status === 'done' && before !== 'done')
      this.host.onEvent({ type: 'success', id: rec.id, name: rec.name });
    if (next.status === 'image_label_decode_error' && before !== next.status)
      this.host.onEvent({ type: 'labelUnreadable', id: rec.id, name: rec.name });
    if (!isAwaitingServer(next.status)) await dropKept(rec.id, this.db);
  }

  private async pollServer(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      for (const rec of [...this.records.values()]) {
        if (rec.cancelPending) {
          const told = await this.deleteOnServer(rec);
          if (told !== 'offline') await this.save(rec, { cancelPending: false });
        } else if (isAwaitingServer(rec.status)) {
          const group = await this.fetchGroup(rec.id);
          if (group) await this.applyGroup(rec, group);
        }
      }
    } finally {
      this.polling = false;
    }
  }

  // ------------------------------------------------------------------ records and copies

  /** Reads the user's records; resumes those that were being sent and that no other tab holds. */
  private async reload(): Promise<void> {
    const userId = this.userId;
    if (!userId || this.stopped) return;
    const addsBefore = this.adds;
    const stored = await listRecords(userId, this.db);
    for (const r of stored) {
      if (this.locks.has(r.id)) continue; // this engine is the record's writer
      this.records.set(r.id, r);
      if (!isSending(r.status) || r.needsFile) continue;
      if (!(await tryLock(r.id, this.locks))) continue;
      const fresh = (await getRecord(r.id, this.db)) ?? r;
      this.records.set(r.id, fresh);
      await this.restoreFiles(fresh);
    }
    const ids = new Set(stored.map((r) => r.id));
    // A record added while this listing ran is not in it, yet is not gone.
    for (const id of [...this.records.keys()])
      if (!ids.has(id) && (this.addedAt.get(id) ?? 0) <= addsBefore) this.records.delete(id);
    this.emit();
    this.pump();
  }

  /** After a restart: the kept copies, or the row asks for the file again. */
  private async restoreFiles(rec: UploadRecord): Promise<void> {
    let missing = false;
    for (const part of rec.parts) {
      const key = keyOf(rec.id, part.relativePath);
      if (part.done || this.blobs.has(key)) continue;
      const blob = await readKept(rec.id, part, this.db);
      if (blob) this.blobs.set(key, blob);
      else missing = true;
    }
    if (missing) {
      await this.save(rec, { needsFile: true, error: UploadOwnText.fileNotKept });
      this.locks.get(rec.id)?.();
    } else if (rec.needsFile) await this.save(rec, { needsFile: false, error: null });
  }

  /** Copies the record's files into the origin's storage, one at a time, behind the upload. */
  private keepCopies(id: string): void {
    this.keeping = this.keeping.then(async () => {
      const rec = this.records.get(id);
      if (!rec) return;
      for (const part of rec.parts) {
        const blob = this.blobs.get(keyOf(id, part.relativePath));
        if (!blob || part.kept === 'opfs' || part.kept === 'idb') continue;
        const kept = this.opts.keepFiles ? await keepFile(id, part.relativePath, blob, this.db) : 'none';
        await this.savePart(id, part.relativePath, { kept });
      }
      const after = this.records.get(id);
      if (after && !isSending(after.status)) await dropKept(id, this.db);
    });
  }

  private async save(rec: UploadRecord, change: Partial<UploadRecord>): Promise<UploadRecord> {
    Object.assign(rec, change, { updatedAt: now() });
    this.records.set(rec.id, rec);
    await putRecord({ ...rec, parts: rec.parts.map((p) => ({ ...p })) }, this.db);
    this.emit();
    return rec;
  }

  private async savePart(
    id: string,
    relativePath: string,
    change: Partial<UploadPartRecord>,
    recordChange: Partial<UploadRecord> = {},
  ): Promise<UploadRecord | undefined> {
    const rec = this.records.get(id);
    const part = rec?.parts.find((p) => p.relativePath === relativePath);
    if (!rec || !part) return undefined;
    Object.assign(part, change);
    if (change.done) part.offset = part.size;
    this.progress(id, relativePath, part.done ? part.size : part.offset);
    return this.save(rec, recordChange);
  }

  // ------------------------------------------------------------------ live numbers

  private liveOf(id: string): Live {
    let l = this.live.get(id);
    if (!l) {
      l = { samples: [], sent: 0, partBytes: new Map() };
      this.live.set(id, l);
    }
    return l;
  }

  private sample(): void {
    const t = performance.now();
    for (const rec of this.records.values()) {
      const sending = [...this.running.keys()].some((k) => k.startsWith(`${rec.id}/`));
      const live = this.live.get(rec.id);
      if (sending)
        this.liveOf(rec.id).samples = pushSample(this.liveOf(rec.id).samples, {
          at: t,
          bytes: rec.transferred,
        });
      else if (live?.samples.length) live.samples = [];
    }
    if (this.running.size) this.emit();
  }

  private views(): UploadView[] {
    return [...this.records.values()]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((rec) => {
        const live = this.live.get(rec.id);
        const sending = [...this.running.keys()].some((k) => k.startsWith(`${rec.id}/`));
        return {
          ...rec,
          parts: rec.parts.map((p) => ({ ...p })),
          speed: sending && live ? speedOf(live.samples) : undefined,
          sentBytes: live?.sent ?? 0,
          sending,
        };
      });
  }

  private emit(): void {
    if (this.emitTimer || this.stopped) return;
    this.emitTimer = setTimeout(() => {
      this.emitTimer = undefined;
      if (!this.stopped) this.host.onChange(this.views());
    }, EMIT_MS);
  }
}

// The upload machinery of one app: settings, storage, the checksum-verifying store and the tus
// server (abandoned uploads expire through the 'expire-uploads' job, expiry-job.ts). Made once per
// app and shared by the tus routes and the upload-group routes.
import type { FastifyInstance } from 'fastify';
import { EVENTS, MemoryLocker, Server, type Locker } from '@tus/server';
import { UPLOAD_PATH } from '../../api/uploads';
import type { AppContext } from '../context';
import { storageFor } from '../storage';
import { expireUploads, finishPart, type UploadDeps } from './assemble';
import { uploadSettingsFromEnv, type UploadSettings } from './config';
import { SERVER_FAILED } from '../http/errors';
import { PgLocker } from './pg-locker';
import { chunkContext, STORAGE_FULL, UploadStore } from './store';

export interface UploadRuntime {
  settings: UploadSettings;
  deps: UploadDeps;
  store: UploadStore;
  tus: Server;
  /** The resources' locks, shared by tus and our PATCH handler (patch.ts). */
  locker: Locker;
  /** Expires abandoned uploads now (what the expire-uploads job does; tests call it with a later `now`). */
  sweep(now?: Date): Promise<number>;
}

const runtimes = new WeakMap<AppContext, UploadRuntime>();

export function uploadRuntime(app: FastifyInstance): UploadRuntime {
  const existing = runtimes.get(app.ctx);
  if (existing) return existing;
  const settings = uploadSettingsFromEnv();
  const storage = storageFor({ dataDir: app.ctx.config.dataDir, expiryMs: settings.expiryMs });
  const ctx = app.ctx as AppContext & { jobs?: { nudge(): void } };
  const deps: UploadDeps = { db: app.ctx.db, storage, log: app.log, nudge: () => ctx.jobs?.nudge() };
  const store = new UploadStore(storage);
  // One process owns PGlite; with PostgreSQL several servers may take the same upload.
  const shared = app.ctx.database.shared;
  const locker = shared ? new PgLocker(shared) : new MemoryLocker();
  const tus = new Server({
    path: UPLOAD_PATH,
    datastore: store,
    locker,
    relativeLocation: true,
    maxSize: settings.maxBytes,
    // The id was chosen and recorded in the database by the route before tus creates the resource.
    namingFunction: () => {
      const id = chunkContext.getStore()?.newUploadId;
      if (!id) throw { status_code: 500, body: 'No upload id was prepared\n' };
      return id;
    },
    async onUploadFinish(_req, upload) {
      await finishPart(deps, upload.id);
      return {};
    },
    // tus answers an unexpected error with its message (a Node error names the server's paths): a
    // full disk is the 507 a person can act on, anything else the server's generic failure.
    onResponseError(_req, err) {
      if ('status_code' in err) return undefined;
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return STORAGE_FULL;
      app.log.error({ err }, 'tus request failed');
      return { status_code: 500, body: `${SERVER_FAILED}\n` };
    },
  });
  tus.on(EVENTS.POST_CREATE, (_req, upload) => app.log.debug({ upload: upload.id }, 'upload created'));

  const rt: UploadRuntime = {
    settings,
    deps,
    store,
    tus,
    locker,
    sweep: (now) => expireUploads(deps, settings.expiryMs, now),
  };
  runtimes.set(app.ctx, rt);
  // Expiring abandoned uploads runs as the 'expire-uploads' job of the queue (expiry-job.ts).
  return rt;
}

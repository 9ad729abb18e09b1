// The upload worker's entry (STYLE §7): exposes the engine over Comlink. The page connects with its
// host callbacks (change snapshots, toasts, session refresh), then drives it with start/add/cancel.
import * as Comlink from 'comlink';
import { UploadEngine, type EngineHost, type EngineOptions, type PickedFile } from './upload-engine';

let engine: UploadEngine | undefined;
const need = (): UploadEngine => {
  if (!engine) throw new Error('uploads: connect first');
  return engine;
};

const api = {
  connect(host: EngineHost, opts: EngineOptions): void {
    engine?.stop();
    engine = new UploadEngine(host, opts);
  },
  start: (userId: string) => need().start(userId),
  stop: () => need().stop(),
  add: (files: PickedFile[]) => need().add(files),
  cancel: (id: string) => need().cancel(id),
  clear: (ids: string[]) => need().clear(ids),
  provideFiles: (id: string, files: File[]) => need().provideFiles(id, files),
  refresh: (id: string) => need().refresh(id),
  wake: () => need().wake(),
};
export type UploadWorkerApi = typeof api;

Comlink.expose(api);
// Back online: paused files go on at once instead of at their next retry.
self.addEventListener('online', () => engine?.wake());

// The upload worker's main-thread entry (STYLE §7): starts the worker and talks to it over Comlink,
// or runs the same engine on the page where module workers are missing. Either way the page gets the
// same asynchronous client.
import * as Comlink from 'comlink';
import { UploadEngine, type EngineHost, type EngineOptions, type PickedFile } from './upload-engine';
import type { UploadWorkerApi } from './upload.worker';

export type { EngineHost, EngineOptions, PickedFile, UploadEvent, UploadView } from './upload-engine';

export interface UploadsClient {
  /** Where the engine runs: a worker, or the page (fallback). */
  readonly where: 'worker' | 'page';
  start(userId: string): Promise<void>;
  stop(): Promise<void>;
  add(files: PickedFile[]): Promise<string[]>;
  cancel(id: string): Promise<void>;
  /** Clears finished, canceled and failed rows; returns the ids cleared. */
  clear(ids: string[]): Promise<string[]>;
  /** Undefined when the files match; else the text saying they are not the same. */
  provideFiles(id: string, files: File[]): Promise<string | undefined>;
  refresh(id: string): Promise<void>;
  wake(): Promise<void>;
}

export function createUploadsClient(host: EngineHost, opts: EngineOptions): UploadsClient {
  if (typeof Worker !== 'undefined') {
    try {
      const worker = new Worker(new URL('./upload.worker.ts', import.meta.url), {
        type: 'module',
        name: 'uploads',
      });
      const remote = Comlink.wrap<UploadWorkerApi>(worker);
      const connected = remote.connect(Comlink.proxy(host), opts);
      const call =
        <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
        async (...args: A): Promise<R> => {
          await connected;
          return fn(...args);
        };
      return {
        where: 'worker',
        start: call((userId: string) => remote.start(userId)),
        stop: call(() => remote.stop()),
        add: call((files: PickedFile[]) => remote.add(files)),
        cancel: call((id: string) => remote.cancel(id)),
        clear: call((ids: string[]) => remote.clear(ids)),
        provideFiles: call((id: string, files: File[]) => remote.provideFiles(id, files)),
        refresh: call((id: string) => remote.refresh(id)),
        wake: call(() => remote.wake()),
      };
    } catch (error) {
      console.warn('uploads: no worker, sending from the page', error);
    }
  }
  const engine = new UploadEngine(host, opts);
  return {
    where: 'page',
    start: (userId) => engine.start(userId),
    stop: async () => engine.stop(),
    add: (files) => engine.add(files),
    cancel: (id) => engine.cancel(id),
    clear: (ids) => engine.clear(ids),
    provideFiles: (id, files) => engine.provideFiles(id, files),
    refresh: (id) => engine.refresh(id),
    wake: async () => engine.wake(),
  };
}

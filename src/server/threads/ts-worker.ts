// Worker threads with a TypeScript entry, in every way the server runs (tsx for `npm start`, `npm run
// worker` and the benches; vitest's module runner in tests): none of them passes its TypeScript loader
// to a new thread, so every thread starts at ts-entry.mjs, which registers one and imports the entry.
import { Worker, type WorkerOptions } from 'node:worker_threads';

const LOADER = new URL('./ts-entry.mjs', import.meta.url);

/** The entry's thread-side data, as `workerData.data` (by value: structured clone). */
export interface TsWorkerData<T> {
  entry: string;
  data: T;
}

/** Starts a thread running the TypeScript module `entry` (a file URL), handing it `data`. */
export function tsWorker<T>(entry: URL, data: T, options: Omit<WorkerOptions, 'workerData'> = {}): Worker {
  const workerData: TsWorkerData<T> = { entry: entry.href, data };
  return new Worker(LOADER, { ...options, workerData });
}

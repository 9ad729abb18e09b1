// The first module of a worker thread whose entry is TypeScript (ts-worker.ts starts it): a thread
// starts with none of the parent's module hooks, so it registers tsx's loader here, in plain JS that
// needs no loader, then imports the entry named in workerData. Plain JS because it runs before any
// TypeScript loader exists.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);

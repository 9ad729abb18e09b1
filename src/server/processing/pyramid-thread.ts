// The pyramid's thread (started by pyramid-in-thread.ts): opens its own storage and the slide from
// the task's values, writes the pyramid(s) and layers.json into the pack, makes the thumbnail and
// label picture and posts them with the result, or the error (the pack discarded). Its priority is lowered first, so the server's event loop gets the
// CPU before it when both want it.
import os from 'node:os';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { openSlide } from '../slides/registry';
import { storageFrom } from '../storage';
import type { TsWorkerData } from '../threads/ts-worker';
import { PackWriter } from './pack-format';
import { toThreadError, type FromThread, type PyramidTask, type ToThread } from './pyramid-in-thread';
import { labelPng, thumbnailJpeg } from './previews';
import { writePyramid, type ChannelRange } from './tiler';

/** Progress is posted at most this often (a big slide has tens of thousands of tiles). */
const PROGRESS_MS = 250;

const port = parentPort!;
const task = (workerData as TsWorkerData<PyramidTask>).data;
const abort = new AbortController();
port.on('message', (m: ToThread) => {
  if (m.type === 'abort') abort.abort();
});
const post = (m: FromThread) => port.postMessage(m);

async function run(): Promise<void> {
  try {
    // On Linux the calling thread's own priority; where the OS refuses, the thread runs at the default.
    os.setPriority(0, task.niceness);
  } catch {
    // Not permitted or not supported: the thread keeps the default priority.
  }
  const storage = storageFrom(task.storage);
  const slide = await openSlide(task.keys, {
    maxPixels: task.maxPixels,
    scene: task.scene,
    openFile: (key) => storage.openSource(key),
  });
  try {
    const pack = await PackWriter.create(task.file);
    try {
      let last = 0;
      const pyramid = await writePyramid(slide, pack, {
        signal: abort.signal,
        onProgress: (done, total) => {
          const now = Date.now();
          if (now - last < PROGRESS_MS && done < total) return;
          last = now;
          post({ type: 'progress', done, total });
        },
      });
      await pack.put('layers.json', Buffer.from(task.layersJson));
      const bytes = await pack.finish();
      const ranges = pyramid.layers.map((l) => l.range).filter((r): r is ChannelRange => !!r);
      const thumbnail = await thumbnailJpeg(slide, ranges.length ? ranges : undefined);
      const label = (await labelPng(slide))?.png;
      post({ type: 'done', pyramid, bytes, thumbnail, label, threadId });
    } catch (error) {
      await pack.discard();
      throw error;
    }
  } finally {
    await slide.close();
  }
}

run().catch((error: unknown) => post({ type: 'error', error: toThreadError(error) }));

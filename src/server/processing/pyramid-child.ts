// The pyramid's child process (forked by pyramid-process.ts through ts-entry.mjs, which has lowered
// its priority): asks for its task and takes it from the reply, opens its own storage and the slide from
// its values, writes the pyramid(s) and layers.json into the pack, makes the thumbnail (from the
// pyramid's small level) and label picture and sends them with the result, or the error (the pack
// discarded); then waits for the next task until the parent disconnects.
import { storageFrom } from '../storage';
import { openStoredSlide } from './files';
import { PackWriter } from './pack-format';
import { toChildError, type FromChild, type PyramidTask, type ToChild } from './pyramid-process';
import { labelPng, THUMBNAIL_MAX, thumbnailFrom } from './previews';
import { tuneSharpForPyramids, writePyramid } from './tiler';

/** Progress is sent at most this often (a big slide has tens of thousands of tiles). */
const PROGRESS_MS = 250;

const send = (m: FromChild) => {
  if (process.connected) process.send!(m);
};

async function run(task: PyramidTask): Promise<void> {
  const storage = storageFrom(task.storage);
  const slide = await openStoredSlide(storage, task.keys, { maxPixels: task.maxPixels, scene: task.scene });
  try {
    const pack = await PackWriter.create(task.file);
    try {
      let last = 0;
      const { overview, ...pyramid } = await writePyramid(slide, pack, {
        overview: THUMBNAIL_MAX,
        onProgress: (done, total) => {
          const now = Date.now();
          if (now - last < PROGRESS_MS && done < total) return;
          last = now;
          send({ type: 'progress', done, total });
        },
      });
      await pack.put('layers.json', Buffer.from(task.layersJson));
      const bytes = await pack.finish();
      // From the pyramid's own small level: a slide without small levels of its own is not read again.
      const thumbnail = await thumbnailFrom(
        overview!,
        slide.channels.map((c) => c.color),
      );
      const label = (await labelPng(slide))?.png;
      send({ type: 'done', pyramid, bytes, thumbnail, label, pid: process.pid });
    } catch (error) {
      await pack.discard();
      throw error;
    }
  } finally {
    await slide.close();
  }
}

tuneSharpForPyramids();

// One task at a time: the parent sends the next only after this one's answer.
process.on('message', (m: ToChild) => {
  run(m.task).catch((error: unknown) => send({ type: 'error', error: toChildError(error) }));
});
send({ type: 'ready' });

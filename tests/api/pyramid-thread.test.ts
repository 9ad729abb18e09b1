// The pyramid step of processing runs in a thread of its own (pyramid-in-thread.ts), so the server's
// event loop answers requests while it runs: the pack is written by another thread than the caller's,
// holds exactly the tiles writePyramid makes in process plus layers.json, the thumbnail and label
// picture come back as previews.ts makes them in process, progress comes back, an
// abort stops it, and a reader's failure inside the thread comes back as the same SlideError (code
// and reason).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileReader, PackIndex } from '../../src/server/processing/pack-format';
import { labelPng, thumbnailJpeg } from '../../src/server/processing/previews';
import { writePackInThread, type PyramidTask } from '../../src/server/processing/pyramid-in-thread';
import { folderSink, writePyramid } from '../../src/server/processing/tiler';
import { SlideError } from '../../src/server/slides/errors';
import { openSlide } from '../../src/server/slides/registry';
import { createStorage, type FileStorage } from '../../src/server/storage';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const FIXTURE = 'qptiff/brightfield.qptiff';

describe('the pyramid in its own thread', () => {
  let dir: string;
  let storage: FileStorage;
  const task = (keys: string[], file: string): PyramidTask => ({
    storage: storage.settings,
    keys,
    scene: 0,
    file: path.join(dir, file),
    layersJson: JSON.stringify({ layers: 'as given' }),
    niceness: 10,
  });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pyramid-thread-'));
    storage = createStorage({ dataDir: dir, env: {}, expiryMs: 60_000 });
    await storage.putFile('images/a/brightfield.qptiff', path.join(FIXTURES, FIXTURE));
    fs.writeFileSync(path.join(dir, 'not-a-slide.qptiff'), 'these bytes are no TIFF');
    await storage.putFile('images/b/not-a-slide.qptiff', path.join(dir, 'not-a-slide.qptiff'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the pack in another thread: the tiles writePyramid makes here, layers.json, previews, progress', async () => {
    const progress: Array<[number, number]> = [];
    const result = await writePackInThread(task(['images/a/brightfield.qptiff'], 'a.pack'), {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result.threadId).not.toBe(threadId);

    const here = path.join(dir, 'here');
    const slide = await openSlide([path.join(FIXTURES, FIXTURE)]);
    const expected = await writePyramid(slide, folderSink(here));
    const thumbnail = await thumbnailJpeg(slide);
    const label = await labelPng(slide);
    await slide.close();
    expect(result.pyramid).toEqual(expected);
    expect(Buffer.from(result.thumbnail).equals(thumbnail)).toBe(true);
    expect(label).toBeDefined();
    expect(Buffer.from(result.label!).equals(label!.png)).toBe(true);

    const file = path.join(dir, 'a.pack');
    const index = await PackIndex.read(fs.statSync(file).size, fileReader(file));
    expect(result.bytes).toBe(fs.statSync(file).size);
    const names = [...index.names()].sort();
    const loose = fs
      .readdirSync(here, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(here, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    expect(names).toEqual([...loose, 'layers.json'].sort());
    expect(progress.at(-1)).toEqual([expected.tiles, expected.tiles]);
  });

  it("stops when the job is aborted, with the signal's reason, and leaves no pack", async () => {
    const abort = new AbortController();
    const writing = writePackInThread(task(['images/a/brightfield.qptiff'], 'c.pack'), {
      signal: abort.signal,
    });
    // The thread takes the abort message before its first band (opening the slide awaits I/O first).
    abort.abort(new Error('job stopped'));
    await expect(writing).rejects.toThrow('job stopped');
    expect(fs.existsSync(path.join(dir, 'c.pack'))).toBe(false);
  });

  it("brings a reader's failure back as the same SlideError and leaves no pack", async () => {
    const inProcess = await openSlide([path.join(dir, 'not-a-slide.qptiff')]).catch((e: unknown) => e);
    expect(inProcess).toBeInstanceOf(SlideError);
    const error = await writePackInThread(task(['images/b/not-a-slide.qptiff'], 'b.pack')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SlideError);
    const { code, message } = error as SlideError;
    expect({ code, message }).toEqual({
      code: (inProcess as SlideError).code,
      message: (inProcess as SlideError).message,
    });
    expect(fs.existsSync(path.join(dir, 'b.pack'))).toBe(false);
  });
});

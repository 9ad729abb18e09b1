// The pyramid step of processing runs in a child process of its own (pyramid-process.ts), so the
// server's threads answer requests while it runs: the pack is written by another process,
// holds exactly the tiles writePyramid makes in process plus layers.json, the thumbnail (from the
// pyramid's small level) and label picture come back as previews.ts makes them in process, progress comes back, the child writes the
// next pack without starting again, an abort kills the child and leaves no pack, a child that dies unasked is a plain Error (the queue
// retries it), and a reader's failure inside the child comes back as the same SlideError (code
// and reason).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileReader, PackIndex } from '../../src/server/processing/pack-format';
import { labelPng, THUMBNAIL_MAX, thumbnailFrom } from '../../src/server/processing/previews';
import {
  endIdlePyramidChildren,
  writePackInChild,
  type PyramidTask,
} from '../../src/server/processing/pyramid-process';
import { folderSink, writePyramid } from '../../src/server/processing/tiler';
import { SlideError } from '../../src/server/slides/errors';
import { openSlide } from '../../src/server/slides/registry';
import { alive, children, threadNiceness } from './processes';
import { createStorage, type FileStorage } from '../../src/server/storage';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const FIXTURE = 'qptiff/brightfield.qptiff';

describe('the pyramid in its own process', () => {
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
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pyramid-process-'));
    storage = createStorage({ dataDir: dir, env: {}, expiryMs: 60_000 });
    await storage.putFile('images/a/brightfield.qptiff', path.join(FIXTURES, FIXTURE));
    fs.writeFileSync(path.join(dir, 'not-a-slide.qptiff'), 'these bytes are no TIFF');
    await storage.putFile('images/b/not-a-slide.qptiff', path.join(dir, 'not-a-slide.qptiff'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the pack in another process: the tiles writePyramid makes here, layers.json, previews, progress', async () => {
    const progress: Array<[number, number]> = [];
    const result = await writePackInChild(task(['images/a/brightfield.qptiff'], 'a.pack'), {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result.pid).not.toBe(process.pid);
    // The child stays for the next pack, and writes it without starting again.
    expect(children()).toEqual([result.pid]);
    const again = await writePackInChild(task(['images/a/brightfield.qptiff'], 'a2.pack'));
    expect(again.pid).toBe(result.pid);
    expect(again.bytes).toBe(result.bytes);
    endIdlePyramidChildren();
    await vi.waitFor(() => expect(children()).toEqual([]));

    const here = path.join(dir, 'here');
    const slide = await openSlide([path.join(FIXTURES, FIXTURE)]);
    const { overview, ...expected } = await writePyramid(slide, folderSink(here), {
      overview: THUMBNAIL_MAX,
    });
    const thumbnail = await thumbnailFrom(overview!, []);
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

  it("kills the child when the job is aborted, with the signal's reason, and leaves no pack", async () => {
    const abort = new AbortController();
    const file = path.join(dir, 'c.pack');
    let running: number[] = [];
    let niceness: number[] = [];
    const writing = writePackInChild(task(['images/a/brightfield.qptiff'], 'c.pack'), {
      signal: abort.signal,
      // The first progress comes once the pack is open and the first band written.
      onProgress: () => {
        if (abort.signal.aborted) return;
        running = children();
        niceness = running.flatMap(threadNiceness);
        abort.abort(new Error('job stopped'));
      },
    });
    await expect(writing).rejects.toThrow('job stopped');
    expect(running).toHaveLength(1);
    // Every thread of the child, libuv's pool and V8's among them, 10 nicer than this one (at most 19).
    expect(niceness.length).toBeGreaterThan(4);
    expect(new Set(niceness)).toEqual(new Set([Math.min(19, os.getPriority(0) + 10)]));
    expect(alive(running[0]!)).toBe(false);
    expect(children()).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('rejects with a plain Error when the child dies unasked, and leaves no pack', async () => {
    const file = path.join(dir, 'd.pack');
    let killed = false;
    const error = await writePackInChild(task(['images/a/brightfield.qptiff'], 'd.pack'), {
      // As the kernel's OOM killer would: no handler of the child's runs.
      onProgress: () => {
        if (killed) return;
        killed = true;
        for (const pid of children()) process.kill(pid, 'SIGKILL');
      },
    }).catch((e: unknown) => e);
    expect(killed).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SlideError);
    expect((error as Error).message).toBe('pyramid process exited (SIGKILL) before the pack was written');
    expect(children()).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("brings a reader's failure back as the same SlideError and leaves no pack", async () => {
    const inProcess = await openSlide([path.join(dir, 'not-a-slide.qptiff')]).catch((e: unknown) => e);
    expect(inProcess).toBeInstanceOf(SlideError);
    const error = await writePackInChild(task(['images/b/not-a-slide.qptiff'], 'b.pack')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SlideError);
    const { code, message } = error as SlideError;
    expect({ code, message }).toEqual({
      code: (inProcess as SlideError).code,
      message: (inProcess as SlideError).message,
    });
    expect(fs.existsSync(path.join(dir, 'b.pack'))).toBe(false);
    expect(children()).toEqual([]);
  });
});
